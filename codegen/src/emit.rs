//! Spec -> tokens: one struct of typed accessors per schema and one function per record side.
//!
//! Everything here is decided from the spec alone: which accessor reads each column, the
//! pre-escaped field-name bytes (joined with their separators), where null checks are needed,
//! whether the row is written with `encode.ignore-null-fields`, and each side's
//! `timestamp-format.standard`, which its timestamp writers take as a type. Each field is one
//! call of the runtime's layout primitives (`rt::object_field`, the same the dynamic encoder
//! calls) with those constants; values, separators, nulls and nested layouts are the runtime's.
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use kjson_runtime::spelling::escape;
use kjson_runtime::{IntervalKind, KjsonError, LogicalType, SideSpec, SinkSpec, TimestampFormat};

use crate::names::{snake_case, upper_camel_case, IdentPool};
use crate::nested::{nested_type, Node, RowField, ScalarWrite, Shape};

/// One physical column as the generated rows hold it.
struct ColumnAccessor {
    field: proc_macro2::Ident,
    nullable: bool,
    /// Its accessor, and those of its ROW fields and ARRAY items.
    node: Node,
}

/// The accessor type of a scalar column of logical type `logical`.
fn accessor_type(column: &str, logical: &LogicalType) -> Result<TokenStream, KjsonError> {
    use LogicalType as L;
    let typed = |ty: TokenStream| Ok(ty);
    match logical {
        L::Boolean => typed(quote!(rt::Bools<'a>)),
        L::TinyInt => typed(quote!(rt::Ints<'a, i8>)),
        L::SmallInt => typed(quote!(rt::Ints<'a, i16>)),
        L::Int | L::Interval { kind: IntervalKind::YearMonth, .. } => typed(quote!(rt::Ints<'a, i32>)),
        L::BigInt => typed(quote!(rt::Ints<'a, i64>)),
        L::Float => typed(quote!(rt::Floats32<'a>)),
        L::Double => typed(quote!(rt::Floats64<'a>)),
        L::Decimal { .. } => typed(quote!(rt::Decimals<'a>)),
        L::Char { .. } | L::VarChar { .. } => typed(quote!(rt::Strings<'a>)),
        L::Binary { .. } | L::VarBinary { .. } => typed(quote!(rt::Binaries<'a>)),
        L::Date => typed(quote!(rt::Dates<'a>)),
        L::Timestamp { .. } | L::TimestampLtz { .. } => typed(quote!(rt::Timestamps<'a>)),
        L::Interval { kind: IntervalKind::DayTime, .. } => typed(quote!(rt::Intervals<'a>)),
        L::Time { .. } => typed(quote!(rt::Times<'a>)),
        L::Array(_) | L::Map { .. } | L::Multiset(_) | L::Row(_) => {
            Err(KjsonError::internal(format!("column `{column}`: a nested type has the accessors of `nested_type`")))
        }
        L::Unsupported { text } => {
            Err(KjsonError::type_error(format!("column `{column}`: Not support to parse type: {text}")))
        }
    }
}

/// The accessor of a value named `ident`, bound from `source`, and those of its fields and items
/// (named after it; `index` is the top-level column's, to make clashing names unique).
fn node(
    pool: &mut IdentPool,
    column: &str,
    ident: String,
    logical: &LogicalType,
    source: TokenStream,
    index: usize,
) -> Result<Node, KjsonError> {
    let field = format_ident!("{ident}");
    let Some(ty) = nested_type(logical) else {
        let ty = accessor_type(column, logical)?;
        let write = match logical {
            LogicalType::Timestamp { .. } => ScalarWrite::Timestamp { ltz: false },
            LogicalType::TimestampLtz { .. } => ScalarWrite::Timestamp { ltz: true },
            _ => ScalarWrite::Plain,
        };
        return Ok(Node { field, ty, source, shape: Shape::Scalar(write) });
    };
    let shape = match logical {
        LogicalType::Row(fields) => Shape::Row(
            fields
                .iter()
                .enumerate()
                .map(|(k, f)| {
                    let child = pool.take(&format!("{ident}_{}", snake_case(&f.name)), index);
                    let k = Literal::usize_unsuffixed(k);
                    let source = quote!(rt::row_field(#source, #k)?);
                    let node = node(pool, column, child, &f.data_type.logical, source, index)?;
                    Ok(RowField { name: f.name.clone(), name_json: name_json(&f.name), node })
                })
                .collect::<Result<_, KjsonError>>()?,
        ),
        LogicalType::Array(item) => {
            let child = pool.take(&format!("{ident}_item"), index);
            let source = quote!(rt::list_items(#source)?);
            Shape::List(Box::new(node(pool, column, child, &item.logical, source, index)?))
        }
        LogicalType::Map { value, .. } => map_shape(pool, column, &ident, &value.logical, source.clone(), index)?,
        // MULTISET, the one nested type left: a map of element counts.
        _ => map_shape(pool, column, &ident, &LogicalType::Int, source.clone(), index)?,
    };
    Ok(Node { field, ty, source, shape })
}

/// A MAP's (or a MULTISET's, whose values are INT counts) value accessor.
fn map_shape(
    pool: &mut IdentPool,
    column: &str,
    ident: &str,
    value: &LogicalType,
    source: TokenStream,
    index: usize,
) -> Result<Shape, KjsonError> {
    let child = pool.take(&format!("{ident}_value"), index);
    let source = quote!(rt::map_values(#source)?);
    Ok(Shape::Map(Box::new(node(pool, column, child, value, source, index)?)))
}

fn accessors(spec: &SinkSpec) -> Result<Vec<ColumnAccessor>, KjsonError> {
    let mut pool = IdentPool::default();
    let idents: Vec<String> =
        spec.columns.iter().enumerate().map(|(index, column)| pool.take(&snake_case(&column.name), index)).collect();
    spec.columns
        .iter()
        .zip(idents)
        .enumerate()
        .map(|(index, (column, ident))| {
            let at = Literal::usize_unsuffixed(index);
            let source = quote!(rt::column(columns, #at)?);
            let node = node(&mut pool, &column.name, ident, &column.data_type.logical, source, index)?;
            Ok(ColumnAccessor { field: node.field.clone(), nullable: column.data_type.nullable, node })
        })
        .collect()
}

/// `"name":` as Jackson escapes it.
fn name_json(name: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(name.len() + 3);
    escape::write_json_str(&mut out, name);
    out.push(b':');
    out
}

fn bytes(literal: &[u8]) -> Literal {
    Literal::byte_string(literal)
}

/// A piece of a row function. Typed accessors write into capacity reserved for a run of
/// pieces (`w`, with the run's bound added up from the pieces'); the generated methods of nested
/// values write into the `Vec` itself (`out`) between such runs.
struct Piece {
    statements: TokenStream,
    /// The bytes of a constant piece.
    constant: Option<Vec<u8>>,
    /// `None`: writes into `out`. Otherwise the constant and per-row parts of its bound.
    bound: Option<(usize, Option<TokenStream>)>,
}

impl Piece {
    fn constant(literal: &[u8]) -> Piece {
        let lit = bytes(literal);
        Piece { statements: quote!(w.put(#lit);), constant: Some(literal.to_vec()), bound: Some((literal.len(), None)) }
    }
}

/// The piece for one field: a call of the runtime's `rt::object_field` (`rt::object_nested_field`
/// for a nested value, through the row's `rt::ObjectFields` `o`) with the field's prefix as a
/// constant: `head` (`{` or `,`) and its name, with `null` after it (`rt::Prefix`), or, where the fields written
/// before it depend on the data (`head` is `None`), its name after a separator written at run
/// time (`rt::Label`).
fn field_piece(
    column: &ColumnAccessor,
    name: &str,
    head: Option<&[u8]>,
    skip_nulls: bool,
    standard: &TokenStream,
) -> Piece {
    let json = [head.unwrap_or_default(), name_json(name).as_slice()].concat();
    let prefix_len = json.len() + usize::from(head.is_none());
    let label = match head {
        Some(_) => {
            let with_null = bytes(&[json.as_slice(), b"null"].concat());
            quote!(&rt::Prefix(#with_null, #name))
        }
        None => {
            let json = bytes(&json);
            quote!(&rt::Label { json: #json, name: #name })
        }
    };
    let field = &column.field;
    let Some(accessor) = column.node.scalar(standard) else {
        let null = if column.nullable { quote!(self.#field.is_null(row)) } else { quote!(false) };
        let call = column.node.call(&quote!(row), standard);
        return Piece { statements: quote!(o.nested(out, #label, #null, |out| #call)?;), constant: None, bound: None };
    };
    let accessor = if column.nullable { accessor } else { quote!(&mut rt::NotNull(#accessor)) };
    let null = if column.nullable && !skip_nulls { 4 } else { 0 };
    let bound = Some((prefix_len + null, Some(quote!(self.#field.bound(row)))));
    Piece { statements: quote!(o.field(w, #accessor, #label)?;), constant: None, bound }
}

/// Whether a field has been written before the current one, as far as codegen can tell.
#[derive(Clone, Copy, PartialEq)]
enum Written {
    Nothing,
    Something,
    /// Depends on the data: kept in the row's `rt::ObjectFields`.
    AtRun,
}

/// The pieces of a side's object. Without `encode.ignore-null-fields` every field is written
/// after a constant `{"a":` / `,"b":`. With it, null fields are left out; where the fields
/// written so far are known (no nullable field yet, or a NOT NULL one since) the separator is
/// still a constant, otherwise the runtime writes it from the row's `first` flag.
fn side_pieces(side: &SideSpec, columns: &[ColumnAccessor], standard: &TokenStream) -> Vec<Piece> {
    let skip_nulls = side.options.ignore_null_fields;
    let mut pieces = Vec::new();
    let mut written = Written::Nothing;
    // A field that is surely written first carries the `{` in its constant.
    let brace_merged = !skip_nulls || side.projection.first().is_some_and(|&col| !columns[col].nullable);
    if !brace_merged {
        pieces.push(Piece::constant(b"{"));
    }
    for (&col, name) in side.projection.iter().zip(&side.field_names) {
        let column = &columns[col];
        let sure = !column.nullable || !skip_nulls;
        let head: Option<&[u8]> = match written {
            Written::Nothing if brace_merged => Some(b"{"),
            Written::Something => Some(b","),
            Written::Nothing | Written::AtRun => None,
        };
        pieces.push(field_piece(column, name, head, skip_nulls, standard));
        written = match (written, sure) {
            (_, true) => Written::Something,
            (Written::Nothing, false) => Written::AtRun,
            (other, false) => other,
        };
    }
    pieces.push(Piece::constant(b"}"));
    pieces
}

/// Joins runs of reserved pieces into one `rt::with_reserved` each.
fn assemble(pieces: Vec<Piece>) -> TokenStream {
    let mut out = TokenStream::new();
    let mut run: Vec<Piece> = Vec::new();
    let flush = |run: &mut Vec<Piece>, out: &mut TokenStream| {
        if run.is_empty() {
            return;
        }
        // Constants alone (the closing `}` after a nested value) need no reservation.
        if let Some(constants) = run.iter().map(|p| p.constant.clone()).collect::<Option<Vec<_>>>() {
            let literal = bytes(&constants.concat());
            out.extend(quote!(out.extend_from_slice(#literal);));
            run.clear();
            return;
        }
        let constant: usize = run.iter().filter_map(|p| p.bound.as_ref()).map(|(c, _)| c).sum();
        let constant = Literal::usize_unsuffixed(constant);
        let per_row = run.iter().filter_map(|p| p.bound.as_ref().and_then(|(_, r)| r.clone()));
        let statements = run.iter().map(|p| &p.statements);
        out.extend(quote! {
            let bound = #constant #(+ #per_row)*;
            rt::with_reserved(out, bound, |w| {
                #(#statements)*
                Ok(())
            })?;
        });
        run.clear();
    };
    for piece in pieces {
        if piece.bound.is_some() {
            run.push(piece);
        } else {
            flush(&mut run, &mut out);
            out.extend(piece.statements);
        }
    }
    flush(&mut run, &mut out);
    out
}

/// The marker type of a side's `timestamp-format.standard`, which its timestamp writers take.
fn timestamp_standard(side: &SideSpec) -> Result<TokenStream, KjsonError> {
    match side.options.timestamp_format {
        TimestampFormat::Sql => Ok(quote!(rt::Sql)),
        TimestampFormat::Iso8601 => Ok(quote!(rt::Iso8601)),
        other => Err(KjsonError::internal(format!(
            "no generated timestamp writer for timestamp-format.standard '{}'",
            other.option_value()
        ))),
    }
}

fn side_body(side: Option<&SideSpec>, columns: &[ColumnAccessor]) -> Result<TokenStream, KjsonError> {
    Ok(match side {
        None => quote! {
            // No `key.format`: the encoder writes null keys and never calls this.
            let _ = (cx, out, row);
        },
        Some(side) if side.projection.is_empty() => quote! {
            let _ = (cx, row);
            out.extend_from_slice(b"{}");
        },
        Some(side) => {
            let body = assemble(side_pieces(side, columns, &timestamp_standard(side)?));
            let skip_nulls = side.options.ignore_null_fields;
            quote!(let mut o = rt::ObjectFields::<#skip_nulls>::new(row, cx); #body)
        }
    })
}

/// Names of the generated items of one schema.
pub struct ItemNames {
    pub schema: proc_macro2::Ident,
    pub rows: proc_macro2::Ident,
}

pub fn item_names(spec: &SinkSpec) -> ItemNames {
    let base = upper_camel_case(&spec.table_name, "Sink");
    ItemNames { schema: format_ident!("{base}"), rows: format_ident!("{base}Rows") }
}

/// The whole generated module body for `spec`.
pub fn schema_tokens(spec: &SinkSpec, fingerprint: u64, canonical: &str) -> Result<TokenStream, KjsonError> {
    let columns = accessors(spec)?;
    let ItemNames { schema, rows } = item_names(spec);
    let fingerprint: Literal =
        format!("{fingerprint:#018x}").parse().map_err(|_| KjsonError::internal("bad fingerprint literal"))?;
    let used =
        |c: usize| spec.value.projection.contains(&c) || spec.key.as_ref().is_some_and(|k| k.projection.contains(&c));
    let not_null = (0..columns.len()).filter(|&c| !columns[c].nullable && used(c)).map(Literal::usize_unsuffixed);
    let mut nodes = Vec::new();
    columns.iter().for_each(|c| c.node.walk(&mut nodes));
    let struct_fields = nodes.iter().map(|n| {
        let (field, ty) = (&n.field, &n.ty);
        quote!(#field: #ty,)
    });
    let binds = nodes.iter().map(|n| {
        let (field, source) = (&n.field, &n.source);
        quote!(#field: rt::BindColumn::bind(#source)?,)
    });
    let methods: TokenStream = columns.iter().map(|c| c.node.methods()).collect();
    // The writers of ROW and ARRAY values, one method each.
    let nested_impl = if methods.is_empty() { quote!() } else { quote!(impl #rows<'_> { #methods }) };
    let key_body = side_body(spec.key.as_ref(), &columns)?;
    let value_body = side_body(Some(&spec.value), &columns)?;
    let table = &spec.table_name;
    let schema_doc = format!(" The generated encoder of sink table `{table}`.");
    let rows_doc = " One batch's typed columns.".to_string();
    Ok(quote! {
        use ::kjson_runtime::codegen_support::{self as rt, ByteSink as _};

        #[doc = #schema_doc]
        pub struct #schema;

        impl rt::GeneratedSchema for #schema {
            const FINGERPRINT: u64 = #fingerprint;
            const CANONICAL_SPEC: &'static str = #canonical;
            const NOT_NULL_COLUMNS: &'static [usize] = &[#(#not_null),*];
            type Rows<'a> = #rows<'a>;

            fn bind<'a>(columns: &'a [rt::BoundColumn<'a>]) -> rt::Result<#rows<'a>> {
                Ok(#rows { #(#binds)* })
            }
        }

        #[doc = #rows_doc]
        pub struct #rows<'a> {
            #(#struct_fields)*
        }

        #nested_impl

        impl rt::RowWriter for #rows<'_> {
            #[inline(always)]
            fn write_key(&mut self, cx: &rt::WriteContext, out: &mut Vec<u8>, row: usize) -> rt::WriteResult {
                #key_body
                Ok(())
            }

            #[inline(always)]
            fn write_value(&mut self, cx: &rt::WriteContext, out: &mut Vec<u8>, row: usize) -> rt::WriteResult {
                #value_body
                Ok(())
            }
        }
    })
}
