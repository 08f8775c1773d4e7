//! Fuzz target: the JavaScript pipeline up to bytecode (`codemode_js::compile`: blank check,
//! size cap, nesting pre-scan, oxc parser, early errors, lowering and the register compiler) on
//! arbitrary input. Any input must give a `Program` or a located ParseError/UnsupportedSyntax —
//! never a panic, a process abort (oxc aborts near 10,000 nesting levels: the pre-scan must
//! reject far below), a stack overflow or an unbounded allocation.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The host API takes `&str`; lossy conversion keeps non-UTF-8 inputs useful as JS-ish text.
    let source = String::from_utf8_lossy(data);
    let _ = codemode_js::compile(&source);
});
