//! The modules of `crates/ttt-cli/src` import each other without circles,
//! and none is a facade re-exporting another's items.
//!
//! Each file is parsed (syn) and every path it names outside its tests
//! (`use` lines, paths in code, paths in macro arguments) that starts with
//! `crate`, `super`, `self` or a child module's name is followed to the
//! deepest module it reaches: that is an edge from the file's module to
//! that one. A module using its ancestors' items (`use super::*` in a part
//! of a larger module) is how a module is split into files, and counts for
//! nothing; any other cycle fails, named module by module.
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;

type Module = Vec<String>;

fn name(m: &Module) -> String {
    if m.is_empty() {
        "crate".into()
    } else {
        m.join("::")
    }
}

/// Every `.rs` file under `dir`, with its module: `lib.rs`, `main.rs` and
/// `bin/*.rs` are crate roots (the library and the binaries share this
/// namespace), `a/mod.rs` and `a.rs` are `a`, `a/b.rs` is `a::b`.
fn modules(dir: &Path) -> BTreeMap<PathBuf, Module> {
    let mut files = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).expect("read src") {
            let path = entry.expect("dir entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(dir).expect("under src");
            let mut parts: Vec<String> = rel
                .with_extension("")
                .iter()
                .map(|p| p.to_string_lossy().into_owned())
                .collect();
            if parts == ["lib"] || parts == ["main"] || parts[0] == "bin" {
                parts.clear();
            } else if parts.last().is_some_and(|p| p == "mod") {
                parts.pop();
            }
            files.insert(path, parts);
        }
    }
    files
}

fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test")
    })
}

/// The paths a file names, each as its segments; `pub use` ones also apart.
#[derive(Default)]
struct Paths {
    all: Vec<Vec<String>>,
    reexported: Vec<Vec<String>>,
}

fn flatten_use(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            flatten_use(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => out.push([prefix.clone(), vec![n.ident.to_string()]].concat()),
        syn::UseTree::Rename(r) => out.push([prefix.clone(), vec![r.ident.to_string()]].concat()),
        syn::UseTree::Glob(_) => out.push(prefix.clone()),
        syn::UseTree::Group(g) => g.items.iter().for_each(|t| flatten_use(t, prefix, out)),
    }
}

/// `a::b::c` runs of identifiers in a macro's arguments.
fn token_paths(tokens: TokenStream, out: &mut Vec<Vec<String>>) {
    let mut run: Vec<String> = Vec::new();
    let mut colons = 0;
    for tt in tokens {
        match tt {
            TokenTree::Ident(i) if run.is_empty() || colons == 2 => {
                run.push(i.to_string());
                colons = 0;
            }
            TokenTree::Punct(p) if p.as_char() == ':' && !run.is_empty() && colons < 2 => {
                colons += 1
            }
            other => {
                if run.len() > 1 {
                    out.push(std::mem::take(&mut run));
                }
                run.clear();
                colons = 0;
                if let TokenTree::Ident(i) = other {
                    run.push(i.to_string());
                } else if let TokenTree::Group(g) = other {
                    token_paths(g.stream(), out);
                }
            }
        }
    }
    if run.len() > 1 {
        out.push(run);
    }
}

impl<'ast> Visit<'ast> for Paths {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs = match item {
            syn::Item::Mod(m) => &m.attrs,
            syn::Item::Fn(f) => &f.attrs,
            syn::Item::Use(u) => &u.attrs,
            syn::Item::Impl(i) => &i.attrs,
            _ => return syn::visit::visit_item(self, item),
        };
        if !is_test_only(attrs) {
            syn::visit::visit_item(self, item);
        }
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        let mut paths = Vec::new();
        flatten_use(&item.tree, &mut Vec::new(), &mut paths);
        if matches!(item.vis, syn::Visibility::Public(_)) {
            self.reexported.extend(paths.iter().cloned());
        }
        self.all.extend(paths);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        self.all
            .push(path.segments.iter().map(|s| s.ident.to_string()).collect());
        syn::visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        token_paths(mac.tokens.clone(), &mut self.all);
    }
}

/// The module a path from `from` reaches, if it is one of the crate's.
fn resolve(from: &Module, path: &[String], known: &BTreeSet<Module>) -> Option<Module> {
    let mut at = from.clone();
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate") => {
            at.clear();
            rest = &path[1..];
        }
        Some("super" | "self") => {
            while let Some(first) = rest.first() {
                match first.as_str() {
                    "super" => at.pop(),
                    "self" => None,
                    _ => break,
                };
                rest = &rest[1..];
            }
        }
        Some(first) if known.contains(&[from.clone(), vec![first.to_string()]].concat()) => {}
        _ => return None,
    }
    for segment in rest {
        at.push(segment.clone());
        if !known.contains(&at) {
            at.pop();
            break;
        }
    }
    Some(at)
}

fn is_within(inner: &Module, outer: &Module) -> bool {
    inner.starts_with(outer)
}

/// A cycle through `start` in `edges`, if there is one.
fn cycle_from(start: &Module, edges: &BTreeMap<Module, BTreeSet<Module>>) -> Option<Vec<Module>> {
    fn walk(
        at: &Module,
        start: &Module,
        edges: &BTreeMap<Module, BTreeSet<Module>>,
        seen: &mut BTreeSet<Module>,
        trail: &mut Vec<Module>,
    ) -> bool {
        for next in edges.get(at).into_iter().flatten() {
            if next == start {
                return true;
            }
            if seen.insert(next.clone()) {
                trail.push(next.clone());
                if walk(next, start, edges, seen, trail) {
                    return true;
                }
                trail.pop();
            }
        }
        false
    }
    let mut trail = vec![start.clone()];
    walk(start, start, edges, &mut BTreeSet::new(), &mut trail).then_some(trail)
}

#[test]
fn modules_import_each_other_without_circles_or_facades() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = modules(&src);
    let known: BTreeSet<Module> = files.values().cloned().collect();
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    let mut facades = Vec::new();
    for (file, module) in &files {
        let text = fs::read_to_string(file).expect("read source");
        let ast = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let mut paths = Paths::default();
        paths.visit_file(&ast);
        for path in &paths.all {
            match resolve(module, path, &known) {
                Some(to) if !is_within(module, &to) => {
                    edges.entry(module.clone()).or_default().insert(to);
                }
                _ => {}
            }
        }
        for path in &paths.reexported {
            if let Some(to) = resolve(module, path, &known) {
                if !is_within(&to, module) {
                    facades.push(format!("{} re-exports {}", name(module), path.join("::")));
                }
            }
        }
    }
    assert!(
        edges.len() > 10,
        "the scan found too few imports to be trusted: {edges:?}"
    );
    assert!(facades.is_empty(), "{facades:#?}");
    for module in &known {
        if let Some(cycle) = cycle_from(module, &edges) {
            let names: Vec<String> = cycle.iter().map(name).collect();
            panic!("an import circle: {} -> {}", names.join(" -> "), names[0]);
        }
    }
}
