//! Java Arrow allocates the 16-byte views of a Utf8View / BinaryView vector without writing the
//! ones under null slots, and full validation reads every view. Before validating, each view
//! array with nulls gets a copy of its views in which null slots hold the empty inline view:
//! only the views of non-null slots are read, so unwritten memory is never interpreted.
use arrow_buffer::Buffer;
use arrow_data::ArrayData;
use arrow_schema::DataType as ArrowType;

/// `data` with the views under null slots zeroed, at any depth; unchanged (not copied) when its
/// type holds no view array.
pub(super) fn zero_null_views(data: ArrayData) -> Result<ArrayData, String> {
    if !holds_views(data.data_type()) {
        return Ok(data);
    }
    let children = data.child_data().iter().cloned().map(zero_null_views).collect::<Result<Vec<_>, _>>()?;
    let is_view = matches!(data.data_type(), ArrowType::Utf8View | ArrowType::BinaryView);
    let mut builder = data.clone().into_builder().child_data(children);
    if is_view && data.null_count() > 0 {
        let views = data.buffers().first().ok_or("a view array without a views buffer")?;
        let nulls = data.nulls().ok_or("a view array with nulls but no validity")?;
        let needed = (data.offset() + data.len()) * 16;
        if views.len() < needed {
            return Err(format!("a view array of {} rows has {} bytes of views", data.len(), views.len()));
        }
        let source = &views.as_slice()[data.offset() * 16..needed];
        let mut zeroed = vec![0u8; data.len() * 16];
        for index in nulls.valid_indices() {
            zeroed[index * 16..(index + 1) * 16].copy_from_slice(&source[index * 16..(index + 1) * 16]);
        }
        let mut buffers = data.buffers().to_vec();
        buffers[0] = Buffer::from_vec(zeroed);
        builder = builder.offset(0).nulls(Some(nulls.clone())).buffers(buffers);
    }
    builder.build().map_err(|e| e.to_string())
}

fn holds_views(data_type: &ArrowType) -> bool {
    match data_type {
        ArrowType::Utf8View | ArrowType::BinaryView => true,
        ArrowType::List(field)
        | ArrowType::LargeList(field)
        | ArrowType::ListView(field)
        | ArrowType::LargeListView(field)
        | ArrowType::FixedSizeList(field, _)
        | ArrowType::Map(field, _) => holds_views(field.data_type()),
        ArrowType::Struct(fields) => fields.iter().any(|field| holds_views(field.data_type())),
        ArrowType::Dictionary(_, values) => holds_views(values),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow_array::{Array, BinaryViewArray, StructArray};
    use arrow_schema::Field;

    use super::*;

    const GARBAGE: [u8; 16] = [5, 0, 0, 0, 1, 2, 3, 4, 5, 0, 0, 0, 0, 0, 0, 0];

    /// Views of `[b"a", null, <longer than twelve>]` with bytes under the null, as an unwritten
    /// Java slot may hold them.
    fn garbage_under_null() -> ArrayData {
        let array = BinaryViewArray::from(vec![Some(&b"a"[..]), None, Some(&b"a value longer than twelve"[..])]);
        let data = array.into_data();
        let mut views = data.buffers()[0].as_slice().to_vec();
        views[16..32].copy_from_slice(&GARBAGE);
        let buffers = [vec![Buffer::from_vec(views)], data.buffers()[1..].to_vec()].concat();
        data.into_builder().buffers(buffers).build().expect("a valid inline view")
    }

    fn views(data: &ArrayData) -> Vec<u8> {
        data.buffers()[0].as_slice()[data.offset() * 16..(data.offset() + data.len()) * 16].to_vec()
    }

    #[test]
    fn null_views_are_zeroed_and_others_kept() {
        let column = garbage_under_null();
        let before = views(&column);
        assert_eq!(&before[16..32], &GARBAGE);
        let fixed = zero_null_views(column).expect("zeroed");
        let after = views(&fixed);
        assert_eq!(&after[16..32], &[0u8; 16], "the null slot's view");
        assert_eq!((&after[..16], &after[32..]), (&before[..16], &before[32..]), "the non-null views");
        let values = BinaryViewArray::from(fixed);
        assert_eq!((values.value(0), values.is_null(1)), (&b"a"[..], true));
        assert_eq!(values.value(2), b"a value longer than twelve");
    }

    #[test]
    fn nested_and_sliced_views_are_zeroed() {
        let nested = StructArray::from(vec![(
            Arc::new(Field::new("bytes", ArrowType::BinaryView, true)),
            arrow_array::make_array(garbage_under_null()),
        )]);
        let fixed = zero_null_views(nested.into_data().slice(1, 2)).expect("zeroed");
        let child = &fixed.child_data()[0];
        assert_eq!((child.offset(), child.len(), child.null_count()), (0, 2, 1));
        assert_eq!(&views(child)[..16], &[0u8; 16]);
        fixed.validate_full().expect("valid");
    }

    #[test]
    fn arrays_without_views_are_not_copied() {
        let strings = arrow_array::StringArray::from(vec![Some("a"), None]).into_data();
        let pointer = strings.buffers()[1].as_ptr();
        assert_eq!(zero_null_views(strings).expect("unchanged").buffers()[1].as_ptr(), pointer);
    }
}
