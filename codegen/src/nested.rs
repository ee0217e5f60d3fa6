//! Typed code for ROW and ARRAY values: every field and item gets a typed accessor of its own,
//! bound once per batch from the nested column, and one generated method per ROW or ARRAY
//! writes its brackets, names and separators around straight-line calls of those accessors.
//! MAP and MULTISET keys (null keys, repeated keys) stay with the runtime (`rt::Maps`); their
//! values are typed too.
use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};

use kjson_runtime::LogicalType;

/// How a scalar accessor writes a value into reserved capacity (`w`).
#[derive(Clone, Copy, PartialEq)]
pub enum ScalarWrite {
    /// `write(w, index, cx)`.
    Plain,
    /// `write(w, index, cx)`, returning a `WriteResult` (TIME outside one day).
    Fallible,
    /// `write_local::<F>(w, index, cx)` or `write_ltz::<F>(w, index, cx)`: TIMESTAMP spelled as the
    /// side's `timestamp-format.standard` `F` says, fixed in the generated code.
    Timestamp { ltz: bool },
}

impl ScalarWrite {
    /// The call writing the value at `index` of accessor `field` for a side of `standard`.
    pub fn call(self, field: &Ident, index: &TokenStream, standard: &TokenStream) -> TokenStream {
        match self {
            ScalarWrite::Plain | ScalarWrite::Fallible => quote!(self.#field.write(w, #index, cx)),
            ScalarWrite::Timestamp { ltz: false } => quote!(self.#field.write_local::<#standard>(w, #index, cx)),
            ScalarWrite::Timestamp { ltz: true } => quote!(self.#field.write_ltz::<#standard>(w, #index, cx)),
        }
    }
}

/// How a value is written.
pub enum Shape {
    /// A typed accessor writing into reserved capacity.
    Scalar(ScalarWrite),
    /// A ROW: its fields with their `"name":` bytes.
    Row(Vec<RowField>),
    /// An ARRAY: its items.
    List(Box<Node>),
    /// MAP and MULTISET: keys by the runtime, values by their own accessor.
    Map(Box<Node>),
}

pub struct RowField {
    pub name: String,
    pub name_json: Vec<u8>,
    pub node: Node,
}

/// One accessor of the generated rows: a column, a ROW field or an ARRAY's items.
pub struct Node {
    pub field: Ident,
    /// The accessor type, e.g. `rt::Timestamps<'a>`.
    pub ty: TokenStream,
    /// The `rt::Result<&Column>` expression it is bound from.
    pub source: TokenStream,
    pub shape: Shape,
}

impl Node {
    /// Every accessor of this value, itself first.
    pub fn walk<'n>(&'n self, all: &mut Vec<&'n Node>) {
        all.push(self);
        match &self.shape {
            Shape::Row(fields) => fields.iter().for_each(|f| f.node.walk(all)),
            Shape::List(items) | Shape::Map(items) => items.walk(all),
            Shape::Scalar(_) => {}
        }
    }

    /// Whether a TIMESTAMP is written within this value: then its method is generic over the
    /// side's standard.
    fn has_timestamp(&self) -> bool {
        let mut all = Vec::new();
        self.walk(&mut all);
        all.iter().any(|node| matches!(node.shape, Shape::Scalar(ScalarWrite::Timestamp { .. })))
    }

    /// The method writing a non-null ROW or ARRAY value of this accessor.
    pub fn method(&self) -> Ident {
        format_ident!("write_{}", self.field)
    }

    /// An expression writing the non-null value at `index` into `out` for a side of timestamp
    /// `standard`, and whether it yields a `WriteResult`.
    pub fn write_expr(&self, index: &TokenStream, standard: &TokenStream) -> (TokenStream, bool) {
        let field = &self.field;
        match &self.shape {
            Shape::Scalar(write) => {
                let call = write.call(field, index, standard);
                let expr = quote!(rt::with_reserved(out, self.#field.bound(#index), |w| #call));
                (expr, *write == ScalarWrite::Fallible)
            }
            Shape::Row(_) | Shape::List(_) | Shape::Map(_) => {
                let method = self.method();
                let standard = if self.has_timestamp() { quote!(::<#standard>) } else { quote!() };
                (quote!(self.#method #standard(cx, out, #index)), true)
            }
        }
    }

    /// A method's generic parameters, and the standard its body writes timestamps in.
    fn generics(&self) -> (TokenStream, TokenStream) {
        if self.has_timestamp() {
            (quote!(<F: rt::TimestampStandard>), quote!(F))
        } else {
            // Never used: no timestamp below.
            (quote!(), quote!(rt::Sql))
        }
    }

    /// The methods of this value's ROW and ARRAY accessors, outermost first.
    pub fn methods(&self) -> TokenStream {
        let mut all = Vec::new();
        self.walk(&mut all);
        all.iter()
            .filter_map(|node| match &node.shape {
                Shape::Row(fields) => Some(node.row_method(fields)),
                Shape::List(items) => Some(node.list_method(items)),
                Shape::Map(values) => Some(node.map_method(values)),
                Shape::Scalar(_) => None,
            })
            .collect()
    }

    /// As the nested-value writers write a ROW: `encode.ignore-null-fields` of the side decides
    /// at run time (key and value share the accessors), errors name the field.
    fn row_method(&self, fields: &[RowField]) -> TokenStream {
        let method = self.method();
        let row = quote!(row);
        let (generics, standard) = self.generics();
        let writes = fields.iter().map(|f| {
            let field = &f.node.field;
            let name = &f.name;
            let prefix = Literal::byte_string(&f.name_json);
            let with_null = Literal::byte_string(&[f.name_json.as_slice(), b"null"].concat());
            let write = match f.node.write_expr(&row, &standard) {
                (expr, true) => quote!(rt::in_field(#expr, #name)?;),
                (expr, false) => quote!(#expr;),
            };
            quote! {
                if self.#field.is_null(row) {
                    if !cx.options.ignore_null_fields {
                        rt::separator(out, &mut first);
                        out.extend_from_slice(#with_null);
                    }
                } else {
                    rt::separator(out, &mut first);
                    out.extend_from_slice(#prefix);
                    #write
                }
            }
        });
        quote! {
            #[inline]
            fn #method #generics(&mut self, cx: &rt::WriteContext, out: &mut Vec<u8>, row: usize) -> rt::WriteResult {
                out.push(b'{');
                let mut first = true;
                #(#writes)*
                out.push(b'}');
                Ok(())
            }
        }
    }

    fn list_method(&self, items: &Node) -> TokenStream {
        let (method, field, item) = (self.method(), &self.field, &items.field);
        let (generics, standard) = self.generics();
        let write = match items.write_expr(&quote!(item), &standard) {
            (expr, true) => quote!(#expr?;),
            (expr, false) => quote!(#expr;),
        };
        quote! {
            #[inline]
            fn #method #generics(&mut self, cx: &rt::WriteContext, out: &mut Vec<u8>, row: usize) -> rt::WriteResult {
                let items = self.#field.range(row);
                out.push(b'[');
                for item in items.clone() {
                    if item > items.start {
                        out.push(b',');
                    }
                    if self.#item.is_null(item) {
                        out.extend_from_slice(b"null");
                    } else {
                        #write
                    }
                }
                out.push(b']');
                Ok(())
            }
        }
    }
}

impl Node {
    /// Keys, duplicates and null keys are the runtime's (`rt::Maps::write`); values are typed.
    fn map_method(&self, values: &Node) -> TokenStream {
        let (method, field, value) = (self.method(), &self.field, &values.field);
        let (generics, standard) = self.generics();
        let write = match values.write_expr(&quote!(entry), &standard) {
            (expr, true) => quote!(#expr),
            (expr, false) => quote!({ #expr; Ok(()) }),
        };
        quote! {
            #[inline]
            fn #method #generics(&mut self, cx: &rt::WriteContext, out: &mut Vec<u8>, row: usize) -> rt::WriteResult {
                let map = self.#field;
                map.write(cx, out, row, |out, entry| {
                    if self.#value.is_null(entry) {
                        out.extend_from_slice(b"null");
                        Ok(())
                    } else {
                        #write
                    }
                })
            }
        }
    }
}

/// The accessor type of a nested logical type, `None` for a scalar.
pub fn nested_type(logical: &LogicalType) -> Option<TokenStream> {
    match logical {
        LogicalType::Row(_) => Some(quote!(rt::Structs<'a>)),
        LogicalType::Array(_) => Some(quote!(rt::Lists<'a>)),
        LogicalType::Map { .. } | LogicalType::Multiset(_) => Some(quote!(rt::Maps<'a>)),
        _ => None,
    }
}
