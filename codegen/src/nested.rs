//! Typed code for ROW, ARRAY and MAP values: every field, item and map value gets a typed accessor
//! of its own, bound once per batch from the nested column, and one generated method per nested
//! value calls the runtime's layout primitives (`rt::row`, `rt::list`, `rt::map` and their field
//! and scalar forms) with those accessors and the field names: brackets, separators, nulls and
//! MAP keys (null keys, repeated keys) are written by the runtime, as for the dynamic encoder.
use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};

use kjson_runtime::LogicalType;

/// What a scalar accessor is given to write with.
#[derive(Clone, Copy, PartialEq)]
pub enum ScalarWrite {
    /// The accessor itself.
    Plain,
    /// TIMESTAMP through `rt::local::<F>` or `rt::ltz::<F>`: spelled as the side's
    /// `timestamp-format.standard` `F` says, fixed in the generated code.
    Timestamp { ltz: bool },
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

    /// The call writing the non-null ROW, ARRAY or MAP value at `index` into `out` for a side of
    /// timestamp `standard`: the value's method, which yields a `WriteResult`.
    pub fn call(&self, index: &TokenStream, standard: &TokenStream) -> TokenStream {
        let method = self.method();
        let standard = if self.has_timestamp() { quote!(::<#standard>) } else { quote!() };
        quote!(self.#method #standard(cx, out, #index))
    }

    /// What the layout primitives take for this value: the scalar accessor (a timestamp's
    /// spelled in `standard`), or `None` for a nested value.
    pub fn scalar(&self, standard: &TokenStream) -> Option<TokenStream> {
        let field = &self.field;
        match self.shape {
            Shape::Scalar(ScalarWrite::Timestamp { ltz: false }) => {
                Some(quote!(&mut rt::local::<#standard>(&mut self.#field)))
            }
            Shape::Scalar(ScalarWrite::Timestamp { ltz: true }) => {
                Some(quote!(&mut rt::ltz::<#standard>(&mut self.#field)))
            }
            Shape::Scalar(_) => Some(quote!(&mut self.#field)),
            _ => None,
        }
    }

    /// A closure writing the value at an item or entry position, `null` included, for
    /// `rt::list` and `rt::map` (a nested value's items).
    fn nullable_closure(&self, standard: &TokenStream) -> TokenStream {
        let field = &self.field;
        let call = self.call(&quote!(at), standard);
        quote!(|out, at| rt::nullable(out, self.#field.is_null(at), |out| #call))
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

    /// A ROW, as the dynamic programs write it: `encode.ignore-null-fields` of the side decides
    /// at run time (key and value share the accessors), errors name the field.
    fn row_method(&self, fields: &[RowField]) -> TokenStream {
        let (generics, standard) = self.generics();
        let writes = fields.iter().map(|f| {
            let (json, name) = (Literal::byte_string(&f.name_json), &f.name);
            let label = quote!(&rt::Label { json: #json, name: #name });
            match f.node.scalar(&standard) {
                Some(accessor) => quote!(rt::scalar_field(#accessor, out, #label, row, cx, first)?;),
                None => {
                    let (field, call) = (&f.node.field, f.node.call(&quote!(row), &standard));
                    quote!(rt::nested_field(out, #label, cx, first, self.#field.is_null(row), |out| #call)?;)
                }
            }
        });
        self.method_tokens(generics, quote!(rt::row(out, |out, first| { #(#writes)* Ok(()) })))
    }

    fn list_method(&self, items: &Node) -> TokenStream {
        let (generics, standard) = self.generics();
        let field = &self.field;
        let body = match items.scalar(&standard) {
            Some(accessor) => quote!(rt::scalar_list(out, self.#field.range(row), #accessor, cx)),
            None => {
                let item = items.nullable_closure(&standard);
                quote!(rt::list(out, self.#field.range(row), #item))
            }
        };
        self.method_tokens(generics, body)
    }

    /// Keys, duplicates and null keys are the runtime's (`rt::map`); values are typed.
    fn map_method(&self, values: &Node) -> TokenStream {
        let (generics, standard) = self.generics();
        let field = &self.field;
        let body = match values.scalar(&standard) {
            Some(accessor) => quote!(rt::scalar_map(self.#field, cx, out, row, #accessor)),
            None => {
                let value = values.nullable_closure(&standard);
                quote!(rt::map(self.#field, cx, out, row, #value))
            }
        };
        self.method_tokens(generics, body)
    }

    /// The method writing this value, with `body`.
    fn method_tokens(&self, generics: TokenStream, body: TokenStream) -> TokenStream {
        let method = self.method();
        quote! {
            #[inline]
            fn #method #generics(&mut self, cx: &rt::WriteContext, out: &mut Vec<u8>, row: usize) -> rt::WriteResult {
                #body
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
