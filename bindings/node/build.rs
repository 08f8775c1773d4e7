//! Link flags of a Node addon (symbols resolved by node at load time).
fn main() {
    napi_build::setup();
}
