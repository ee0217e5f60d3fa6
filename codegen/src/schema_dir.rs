//! What the root crate's build script does, kept here so that `build.rs` stays a few lines:
//! compile every `*.sql` of the schema folders into `OUT_DIR/kjson_generated/` (one file per
//! distinct row layout), plus a `registry.rs` listing them, writing each file only when its
//! content changed.
use std::fs;
use std::path::{Path, PathBuf};

use proc_macro2::Literal;
use quote::{format_ident, quote};

use kjson_runtime::{KjsonError, SinkSpec};

use crate::names::{snake_case, IdentPool};
use crate::{format_tokens, generate_shared, layouts};

/// A folder of sink DDLs.
pub struct SchemaDir {
    pub path: PathBuf,
    /// How headers and the registry name its files, e.g. `schemas` -> `schemas/q0.sql`.
    pub label: String,
    /// Prefix of the Rust module names of its schemas (keeps user schemas apart from ours).
    pub module_prefix: String,
}

/// The folder's generated files go here, under `out_dir`.
pub const GENERATED_DIR: &str = "kjson_generated";

/// Compiles the `*.sql` files of `dirs` (file-name order, folders in the order given) into one
/// encoder per distinct row layout, its module named after the first file of that layout.
/// Returns every path the build script must watch. Errors name the file, line and column.
pub fn compile_schema_dirs(dirs: &[SchemaDir], out_dir: &Path) -> Result<Vec<PathBuf>, String> {
    let target = out_dir.join(GENERATED_DIR);
    fs::create_dir_all(&target).map_err(|e| format!("cannot create {}: {e}", target.display()))?;
    let mut watched = Vec::new();
    let mut schemas = Vec::new();
    // Each schema's module stem and file, in the order of `schemas`.
    let mut files = Vec::new();
    for dir in dirs {
        watched.push(dir.path.clone());
        for file in sql_files(&dir.path)? {
            let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let origin = format!("{}/{name}", dir.label);
            let ddl = fs::read_to_string(&file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
            let spec = SinkSpec::from_ddl(&ddl).map_err(|e| located(&file, &e))?;
            let stem = file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            files.push((format!("{}{}", dir.module_prefix, snake_case(&stem)), file.clone()));
            schemas.push((origin, spec));
            watched.push(file);
        }
    }
    let mut modules = Vec::new();
    let mut pool = IdentPool::default();
    pool.reserve("registry");
    let specs: Vec<&SinkSpec> = schemas.iter().map(|(_, spec)| spec).collect();
    for members in layouts(&specs) {
        let (stem, file) = &files[members[0]];
        let origins: Vec<String> = members.iter().map(|&i| schemas[i].0.clone()).collect();
        let generated = generate_shared(&schemas[members[0]].1, origins).map_err(|e| located(file, &e))?;
        let module = pool.take(stem, modules.len());
        write_if_changed(&target.join(format!("{module}.rs")), &generated.code)?;
        modules.push((module, generated.type_name, generated.origins.join(", ")));
    }
    write_if_changed(&target.join("registry.rs"), &registry_source(&modules)?)?;
    remove_stale(&target, &modules)?;
    Ok(watched)
}

fn located(file: &Path, e: &KjsonError) -> String {
    match e.position() {
        Some(p) => format!("{}:{}:{}: {e}", file.display(), p.line, p.column),
        None => format!("{}: {e}", file.display()),
    }
}

pub(crate) fn sql_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let entries = fs::read_dir(dir).map_err(|e| format!("cannot read schema folder {}: {e}", dir.display()))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.is_file() && path.extension().is_some_and(|ext| ext == "sql"))
        .collect();
    files.sort();
    Ok(files)
}

/// `registry.rs`: one module per schema and the `SCHEMAS` table, for `include!` from the root
/// crate's registry (which defines `GeneratedEntry`).
fn registry_source(modules: &[(String, String, String)]) -> Result<String, String> {
    let items = modules.iter().map(|(module, _, _)| {
        let ident = format_ident!("{module}");
        let path = format!("/{GENERATED_DIR}/{module}.rs");
        quote!(pub mod #ident { include!(concat!(env!("OUT_DIR"), #path)); })
    });
    let entries = modules.iter().map(|(module, type_name, origin)| {
        let (module, type_ident) = (format_ident!("{module}"), format_ident!("{type_name}"));
        let (origin, type_name) = (Literal::string(origin), Literal::string(type_name));
        quote!(super::GeneratedEntry::of::<#module::#type_ident>(#origin, #type_name),)
    });
    let tokens = quote! {
        #(#items)*

        /// Every generated encoder of this build, in schema-file order.
        pub static SCHEMAS: &[super::GeneratedEntry] = &[#(#entries)*];
    };
    let body = format_tokens(tokens).map_err(|e| e.to_string())?;
    Ok(format!("// @generated by kjson-codegen: the schemas compiled into this build.\n\n{body}"))
}

pub(crate) fn write_if_changed(path: &Path, content: &str) -> Result<(), String> {
    if fs::read_to_string(path).is_ok_and(|old| old == content) {
        return Ok(());
    }
    fs::write(path, content).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Removes generated files of schemas that no longer exist.
pub(crate) fn remove_stale(target: &Path, modules: &[(String, String, String)]) -> Result<(), String> {
    let entries = fs::read_dir(target).map_err(|e| format!("cannot read {}: {e}", target.display()))?;
    for path in entries.filter_map(|entry| entry.ok().map(|e| e.path())) {
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        if stem != "registry" && !modules.iter().any(|(module, _, _)| *module == stem) {
            fs::remove_file(&path).map_err(|e| format!("cannot remove {}: {e}", path.display()))?;
        }
    }
    Ok(())
}
