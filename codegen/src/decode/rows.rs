//! The `GeneratedRow` impls of the decoders of one build, each distinct row layout once: a side's
//! row or a nested ROW reads the same members into the same columns with the same readers
//! whichever table it belongs to (q9's value row is q9 debezium-json's), so tables share it.
use std::collections::{BTreeSet, HashMap};

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use kjson_runtime::{IntervalKind, LogicalType, RowField};

/// The runtime's one-pass reader tracks a row's fields in a 64-bit mask.
const MAX_ARITY: usize = 64;
/// Deeper values are left to the dynamic decoder (as its plan does).
const MAX_DEPTH: usize = 32;

/// The rows generated so far, and how a decoder's code names them.
pub(crate) struct RowPool {
    /// What a decoder puts before a row's name: empty when the rows share its file,
    /// `super::rows::` when they have a module of their own.
    path: TokenStream,
    /// A row's impl body (members, columns, readers) -> its name.
    by_layout: HashMap<String, syn::Ident>,
    names: BTreeSet<String>,
    /// Each row's layout, name, struct and impl, children before parents.
    items: Vec<(String, String, TokenStream)>,
}

/// A row's name hint: the table's name and a running number for its nested rows.
pub(crate) struct RowNames {
    base: String,
    nested: usize,
}

impl RowNames {
    pub fn new(base: String) -> RowNames {
        RowNames { base, nested: 0 }
    }
}

impl RowPool {
    pub fn new(path: TokenStream) -> RowPool {
        RowPool { path, by_layout: HashMap::new(), names: BTreeSet::new(), items: Vec::new() }
    }

    /// The path of row `ty` as a decoder's code writes it.
    pub fn path_of(&self, ty: &syn::Ident) -> TokenStream {
        let path = &self.path;
        quote!(#path #ty)
    }

    /// Every row's struct and impl.
    pub fn items(&self) -> impl Iterator<Item = &TokenStream> {
        self.items.iter().map(|(_, _, item)| item)
    }

    /// [`RowPool::row`] for a side's row, leaving the pool as it was when the side is not covered
    /// (its nested rows read nothing else).
    pub fn side_row(
        &mut self,
        names: &mut RowNames,
        hint: &str,
        fields: &[RowField],
        columns: &[usize],
        what: &str,
    ) -> Option<syn::Ident> {
        let before = self.items.len();
        let row = self.row(names, hint, fields, columns, 1, what);
        if row.is_none() {
            for (layout, name, _) in self.items.drain(before..) {
                self.by_layout.remove(&layout);
                self.names.remove(&name);
            }
        }
        row
    }

    /// The row reading `fields` into `columns` (a value side's table columns; a key side and a
    /// nested row write their own, from 0), named `hint` unless its layout exists already, or
    /// `None` when a field is not covered.
    fn row(
        &mut self,
        names: &mut RowNames,
        hint: &str,
        fields: &[RowField],
        columns: &[usize],
        depth: usize,
        what: &str,
    ) -> Option<syn::Ident> {
        if fields.len() > MAX_ARITY || depth > MAX_DEPTH {
            return None;
        }
        let mut members = Vec::new();
        let mut arms = Vec::new();
        for (index, field) in fields.iter().enumerate() {
            // Names are matched as their raw bytes: a quote, backslash or control byte would
            // differ from the JSON text, a repeated name is ambiguous.
            let plain = !field.name.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20);
            if !plain || fields[..index].iter().any(|f| f.name == field.name) {
                return None;
            }
            let member = Literal::byte_string(format!("\"{}\":", field.name).as_bytes());
            members.push(quote!(rt::Member::of(#member)));
            let at = Literal::usize_unsuffixed(columns.get(index).copied().unwrap_or(index));
            let what = format!("{what}, field `{}`", field.name);
            let read = self.call(names, &field.data_type.logical, depth, &what, quote!(#at))?;
            let index = Literal::usize_unsuffixed(index);
            arms.push(quote!(#index => #read,));
        }
        let columns = (0..fields.len()).map(|i| Literal::usize_unsuffixed(columns.get(i).copied().unwrap_or(i)));
        let body = quote! {
            const MEMBERS: &'static [rt::Member] = &[#(#members),*];
            const COLUMNS: &'static [usize] = &[#(#columns),*];
            #[inline(always)]
            fn field(index: usize, reader: &mut rt::Reader<'_, '_>, columns: &mut rt::Columns<'_>) -> Option<()> {
                match index {
                    #(#arms)*
                    _ => None,
                }
            }
        };
        let doc = if depth == 1 { format!(" The row of {what}.") } else { format!(" A ROW: {what}.") };
        Some(self.intern(hint, &doc, body))
    }

    /// The name of the row whose impl is `body`, added under a free spelling of `hint` when new.
    fn intern(&mut self, hint: &str, doc: &str, body: TokenStream) -> syn::Ident {
        let layout = body.to_string();
        if let Some(ty) = self.by_layout.get(&layout) {
            return ty.clone();
        }
        let mut name = hint.to_string();
        let mut suffix = 1;
        while self.names.contains(&name) {
            suffix += 1;
            name = format!("{hint}{suffix}");
        }
        self.names.insert(name.clone());
        let ty = format_ident!("{name}");
        let item = quote! {
            #[doc = #doc]
            pub struct #ty;
            impl rt::GeneratedRow for #ty { #body }
        };
        self.by_layout.insert(layout.clone(), ty.clone());
        self.items.push((layout, name, item));
        ty
    }

    /// The call that reads a value of `ty` into column `at`, or `None` when it is not covered.
    fn call(
        &mut self,
        names: &mut RowNames,
        ty: &LogicalType,
        depth: usize,
        what: &str,
        at: TokenStream,
    ) -> Option<TokenStream> {
        let simple = |name: &str| {
            let name = format_ident!("{name}");
            quote!(rt::#name(reader, columns, #at))
        };
        Some(match ty {
            LogicalType::Boolean => simple("boolean"),
            LogicalType::TinyInt => simple("tinyint"),
            LogicalType::SmallInt => simple("smallint"),
            LogicalType::Int | LogicalType::Interval { kind: IntervalKind::YearMonth, .. } => simple("int"),
            LogicalType::BigInt | LogicalType::Interval { .. } => simple("bigint"),
            LogicalType::Float | LogicalType::Double => simple("floating"),
            LogicalType::Decimal { precision, scale } => {
                let (precision, scale) = (Literal::u8_unsuffixed(*precision), Literal::u8_unsuffixed(*scale));
                quote!(rt::decimal(reader, columns, #at, #precision, #scale))
            }
            LogicalType::Char { .. } | LogicalType::VarChar { .. } => simple("text"),
            LogicalType::Binary { .. } | LogicalType::VarBinary { .. } => simple("bytes"),
            LogicalType::Date => simple("date"),
            LogicalType::Time { .. } => simple("time"),
            LogicalType::Timestamp { .. } => simple("timestamp"),
            LogicalType::TimestampLtz { .. } => simple("timestamp_ltz"),
            LogicalType::Row(fields) => {
                // Numbered before the children, so that the numbers follow the schema.
                names.nested += 1;
                let hint = format!("{}Row{}", names.base, names.nested);
                let ty = self.row(names, &hint, fields, &[], depth + 1, what)?;
                let ty = self.path_of(&ty);
                quote!(rt::row::<#ty>(reader, columns, #at))
            }
            LogicalType::Array(element) if depth < MAX_DEPTH => {
                let item = self.call(names, &element.logical, depth + 1, &format!("{what}, element"), quote!(0))?;
                quote!(rt::array(reader, columns, #at, |reader, columns| #item))
            }
            LogicalType::Map { key, value } if depth < MAX_DEPTH && is_string(&key.logical) => {
                let item = self.call(names, &value.logical, depth + 1, &format!("{what}, value"), quote!(0))?;
                quote!(rt::map(reader, columns, #at, |reader, columns| #item))
            }
            LogicalType::Multiset(element) if is_string(&element.logical) => simple("multiset"),
            _ => return None,
        })
    }
}

fn is_string(ty: &LogicalType) -> bool {
    matches!(ty, LogicalType::Char { .. } | LogicalType::VarChar { .. })
}
