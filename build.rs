// Re-embed the migrations whenever one is added or changed.
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
