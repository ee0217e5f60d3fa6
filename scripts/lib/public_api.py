#!/usr/bin/env python3
"""The public surface of a crate, one item per line, from rustdoc's JSON output.

    public_api.py CRATE.json > api/CRATE.txt

Walks the crate from its root through public modules and `pub use` re-exports (so an item is
listed where users name it), with public fields, variants, inherent methods and the trait
impls written in the crate (names, not signatures). `#[doc(hidden)]` items are left out: they
are not promised.
"""
import json
import sys


def kind_of(item):
    return next(iter(item["inner"]))


def is_hidden(item):
    return "hidden" in json.dumps(item.get("attrs", []))


class Surface:
    def __init__(self, doc):
        self.index = doc["index"]
        self.lines = set()
        self.seen_modules = set()

    def item(self, item_id):
        return self.index.get(str(item_id)) if item_id is not None else None

    def add(self, kind, path):
        self.lines.add(f"{kind} {path}")

    def walk_module(self, module, path):
        if module["id"] in self.seen_modules:
            return
        self.seen_modules.add(module["id"])
        for child_id in module["inner"]["module"]["items"]:
            child = self.item(child_id)
            if child is None or child.get("visibility") != "public" or is_hidden(child):
                continue
            if kind_of(child) == "use":
                self.walk_use(child, path)
            else:
                self.walk_item(child, f"{path}::{child['name']}")

    def walk_use(self, use_item, path):
        use = use_item["inner"]["use"]
        target = self.item(use.get("id"))
        if use.get("is_glob"):
            if target is not None and kind_of(target) == "module":
                self.walk_module(target, path)
            else:
                self.add("use", f"{path}::* (from {use['source']})")
            return
        name = f"{path}::{use['name']}"
        if target is None or target.get("crate_id") != 0:
            # Another crate's item, re-exported as it is.
            self.add("use", f"{name} (from {use['source']})")
        elif not is_hidden(target):
            self.walk_item(target, name)

    def walk_item(self, item, path):
        kind = kind_of(item)
        self.add(kind, path)
        inner = item["inner"][kind]
        if kind == "module":
            self.walk_module(item, path)
        elif kind == "struct":
            self.walk_struct_fields(inner["kind"], path)
            self.walk_impls(inner.get("impls", []), path)
        elif kind == "enum":
            for variant_id in inner["variants"]:
                variant = self.item(variant_id)
                if variant is not None:
                    self.add("variant", f"{path}::{variant['name']}")
            self.walk_impls(inner.get("impls", []), path)
        elif kind == "trait":
            for member_id in inner["items"]:
                member = self.item(member_id)
                if member is not None:
                    self.add(f"trait-{kind_of(member)}", f"{path}::{member['name']}")

    def walk_struct_fields(self, struct_kind, path):
        if not isinstance(struct_kind, dict):
            return
        fields = struct_kind.get("plain", {}).get("fields", []) + [f for f in struct_kind.get("tuple", []) if f]
        for field_id in fields:
            field = self.item(field_id)
            if field is not None and field.get("visibility") == "public":
                self.add("field", f"{path}::{field['name']}")

    def walk_impls(self, impl_ids, path):
        for impl_id in impl_ids:
            impl_item = self.item(impl_id)
            if impl_item is None or is_hidden(impl_item):
                continue
            impl = impl_item["inner"]["impl"]
            if impl.get("is_synthetic") or impl.get("blanket_impl") is not None:
                continue
            trait = impl.get("trait")
            if trait is not None:
                name = trait.get("path", trait.get("name", "?"))
                # The marker the compiler adds to a derived PartialEq is not a promise of its own.
                if name != "StructuralPartialEq":
                    self.add("impl", f"{path}: {name}")
                continue
            for member_id in impl["items"]:
                member = self.item(member_id)
                if member is not None and member.get("visibility") == "public" and not is_hidden(member):
                    self.add(kind_of(member), f"{path}::{member['name']}")


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        doc = json.load(f)
    surface = Surface(doc)
    root = doc["index"][str(doc["root"])]
    surface.walk_module(root, root["name"])
    for line in sorted(surface.lines):
        print(line)


if __name__ == "__main__":
    main()
