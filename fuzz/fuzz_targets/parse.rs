//! Fuzz target: the Lua parser (and compiler) on arbitrary input. Any input must give a syntax
//! tree or a ParseError/UnsupportedSyntax — never a panic, a stack overflow or an unbounded
//! allocation.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Non-UTF-8 input cannot reach the parser through the host API (it takes `&str`), but lossy
    // conversion keeps those inputs useful as Lua-ish text.
    let source = String::from_utf8_lossy(data);
    if let Ok(block) = codemode_lua::testing::parse(&source) {
        let _ = codemode_lua::testing::compile_chunk(&block);
    }
});
