//! Binary data: the Uint8Array base64 and hex methods (node 20 lacks them, so the expected
//! values here are hand-checked against RFC 4648 §10's test vectors and the TC39
//! proposal-arraybuffer-base64 spec text, the same cases as test262's
//! `built-ins/Uint8Array/fromBase64/last-chunk-handling.js`), the bounds of Uint8Array and
//! `crypto.getRandomValues`, and `structuredClone` of hostile data.

use super::*;
use crate::builtins::bytes::{Decoded, LastChunk, from_base64_units, from_hex_units};

/// RFC 4648 §10: BASE64("f") = "Zg==" ... BASE64("foobar") = "Zm9vYmFy".
const VECTORS: &[(&str, &str, &str)] = &[
    ("", "", ""),
    ("f", "Zg==", "66"),
    ("fo", "Zm8=", "666f"),
    ("foo", "Zm9v", "666f6f"),
    ("foob", "Zm9vYg==", "666f6f62"),
    ("fooba", "Zm9vYmE=", "666f6f6261"),
    ("foobar", "Zm9vYmFy", "666f6f626172"),
];

#[test]
fn base64_and_hex_follow_rfc_4648_vectors() {
    for (text, b64, hex) in VECTORS {
        let src = format!(
            "const u = new TextEncoder().encode({text:?});
             return [u.toBase64(), u.toHex(), new TextDecoder().decode(Uint8Array.fromBase64({b64:?})),
                     new TextDecoder().decode(Uint8Array.fromHex({hex:?})),
                     new TextDecoder().decode(Uint8Array.fromHex({hex:?}.toUpperCase())),
                     u.toBase64({{ omitPadding: true }})]"
        );
        assert_eq!(
            value(&src),
            json!([b64, hex, text, text, text, b64.trim_end_matches('=')]),
            "{text}"
        );
    }
}

#[test]
fn base64url_alphabet() {
    assert_eq!(
        value(
            "const u = new Uint8Array([0xfb, 0xff, 0xbf]);
             const out = [u.toBase64(), u.toBase64({ alphabet: 'base64url' }), u.subarray(0, 2).toBase64({ alphabet: 'base64url', omitPadding: true }),
               Array.from(Uint8Array.fromBase64('-_-_', { alphabet: 'base64url' })), Array.from(Uint8Array.fromBase64('+/+/'))];
             for (const f of [() => Uint8Array.fromBase64('+/+/', { alphabet: 'base64url' }), () => Uint8Array.fromBase64('-_-_'),
                              () => u.toBase64({ alphabet: 'url' }), () => Uint8Array.fromBase64(1), () => Uint8Array.fromBase64('', 'x')]) {
               try { f(); out.push('ok'); } catch (e) { out.push(e.name); }
             }
             return out"
        ),
        json!([
            "+/+/",
            "-_-_",
            "-_8",
            [251, 255, 191],
            [251, 255, 191],
            "SyntaxError",
            "SyntaxError",
            "TypeError",
            "TypeError",
            "TypeError"
        ])
    );
}

fn decode(s: &str, last: LastChunk) -> Result<Vec<u8>, &'static str> {
    let units: Vec<u16> = s.encode_utf16().collect();
    let d = from_base64_units(&units, false, last, usize::MAX);
    match d.error {
        Some(e) => Err(e),
        None => Ok(d.bytes),
    }
}

#[test]
fn last_chunk_handling() {
    use LastChunk::*;
    let exaf = vec![101, 120, 97, 102];
    let exa = vec![101, 120, 97];
    // Padded: every mode.
    for mode in [Loose, Strict, StopBeforePartial] {
        assert_eq!(decode("ZXhhZg==", mode), Ok(exaf.clone()));
        assert_eq!(decode(" ZX hh\tZg =\n= ", mode), Ok(exaf.clone()));
        assert!(decode("ZXhhZg===", mode).is_err(), "excess padding");
        assert!(
            decode("ZXhhZ===", mode).is_err(),
            "padding after 1 character"
        );
        assert!(
            decode("ZX=hZg==", mode).is_err(),
            "characters after padding"
        );
    }
    // Unpadded.
    assert_eq!(decode("ZXhhZg", Loose), Ok(exaf.clone()));
    assert!(decode("ZXhhZg", Strict).is_err());
    assert_eq!(decode("ZXhhZg", StopBeforePartial), Ok(exa.clone()));
    // Partial padding.
    assert!(decode("ZXhhZg=", Loose).is_err());
    assert!(decode("ZXhhZg=", Strict).is_err());
    assert_eq!(decode("ZXhhZg=", StopBeforePartial), Ok(exa.clone()));
    // Nonzero stray bits: ignored except in strict.
    assert_eq!(decode("ZXhhZh==", Loose), Ok(exaf.clone()));
    assert!(decode("ZXhhZh==", Strict).is_err());
    assert_eq!(decode("ZXhhZh", Loose), Ok(exaf.clone()));
    assert_eq!(decode("ZXhhZh", StopBeforePartial), Ok(exa.clone()));
    // One character in the last chunk.
    assert!(decode("ZXhhZ", Loose).is_err());
    assert!(decode("ZXhhZ", Strict).is_err());
    assert_eq!(decode("ZXhhZ", StopBeforePartial), Ok(exa.clone()));
    // Outside the alphabet.
    assert!(decode("ZXhh*g==", Loose).is_err());
    // Through the JavaScript options too.
    assert_eq!(
        value(
            "return ['loose', 'strict', 'stop-before-partial'].map((lastChunkHandling) => {
               try { return Array.from(Uint8Array.fromBase64('ZXhhZg', { lastChunkHandling })); } catch (e) { return e.name; }
             }).concat((() => { try { Uint8Array.fromBase64('', { lastChunkHandling: 'lax' }) } catch (e) { return e.name } })())"
        ),
        json!([[101, 120, 97, 102], "SyntaxError", [101, 120, 97], "TypeError"])
    );
}

#[test]
fn set_from_base64_and_hex_stop_at_the_target() {
    let units: Vec<u16> = "Zm9vYmFy".encode_utf16().collect();
    assert_eq!(
        from_base64_units(&units, false, LastChunk::Loose, 4),
        Decoded {
            read: 4,
            bytes: b"foo".to_vec(),
            error: None
        }
    );
    let hex: Vec<u16> = "deadbeef".encode_utf16().collect();
    assert_eq!(from_hex_units(&hex, 2).bytes, vec![0xde, 0xad]);
    assert!(from_hex_units(&hex[..3], 9).error.is_some(), "odd length");
    assert_eq!(
        value(
            "const u = new Uint8Array(4);
             const r = [u.setFromBase64('Zm9vYmFy'), Array.from(u), u.setFromHex('deadbeef'), Array.from(u)];
             const v = new Uint8Array(8);
             try { v.setFromBase64('Zm9vYmFy$'); } catch (e) { r.push(e.name, Array.from(v)); }
             try { v.setFromHex('0102zz'); } catch (e) { r.push(e.name, Array.from(v.subarray(0, 3))); }
             return r"
        ),
        json!([
            {"read": 4, "written": 3},
            [102, 111, 111, 0],
            {"read": 8, "written": 4},
            [0xde, 0xad, 0xbe, 0xef],
            "SyntaxError",
            [102, 111, 111, 98, 97, 114, 0, 0],
            "SyntaxError",
            [1, 2, 111]
        ])
    );
}

#[test]
fn limit_uint8array_length_and_random_quota() {
    assert_eq!(
        value(
            "const out = [];
             for (const f of [() => new Uint8Array(2 ** 32), () => new Uint8Array(-1), () => crypto.getRandomValues(new Uint8Array(65537))]) {
               try { f(); } catch (e) { out.push([e.name, e.message]); }
             }
             out.push(crypto.getRandomValues(new Uint8Array(crate_limit)).length);
             return out"
            .replace("crate_limit", &crate::limits::MAX_RANDOM_VALUES_BYTES.to_string())
            .as_str()
        ),
        json!([
            ["RangeError", "Invalid typed array length: 4294967296"],
            ["RangeError", "Invalid typed array length: -1"],
            [
                "QuotaExceededError",
                "The requested length exceeds 65,536 bytes"
            ],
            65536
        ])
    );
    // The bytes are charged before they are allocated: a length the memory cap cannot hold
    // ends the run, it is never allocated.
    let held = out_of_memory(
        "const u = new Uint8Array(2 ** 32 - 1); return u.length",
        64 << 20,
    );
    assert!(held < 64 << 20, "{held}");
    // A sparse array's holes are charged before they become values.
    out_of_memory(
        "const a = []; a[2 ** 31] = 1; return new Uint8Array(a).length",
        64 << 20,
    );
    // And they count: 40 views of 1 MiB each pass a 32 MiB cap.
    out_of_memory(
        "const keep = []; for (let i = 0; i < 40; i++) keep.push(new Uint8Array(1 << 20)); return keep.length",
        32 << 20,
    );
}

#[test]
fn random_values_follow_the_seed() {
    let env = Env {
        random: codemode_guest::Random::Seed(7),
        ..Env::default()
    };
    let program = crate::compile("return Array.from(crypto.getRandomValues(new Uint8Array(10)))")
        .expect("compiles");
    let options = StartOptions {
        max_memory_bytes: None,
        deadline: None,
    };
    let mut runs = Vec::new();
    for _ in 0..2 {
        let mut m = crate::machine::Machine::new(&program, &env, &options).expect("starts");
        loop {
            match m.run(100_000) {
                Step::Yield => continue,
                Step::Done { value, .. } => {
                    runs.push(value);
                    break;
                }
                other => panic!("{other:?}"),
            }
        }
    }
    assert_eq!(runs[0], runs[1]);
    assert_eq!(runs[0].as_array().map(|a| a.len()), Some(10));
}

#[test]
fn structured_clone_of_deep_and_huge_data() {
    // 100,000 levels: an explicit work stack, on a small Rust stack.
    let (v, _, _) = on_small_stack(
        "let a = []; for (let i = 0; i < 1e5; i++) a = [a, { i }];
         const c = structuredClone(a);
         let d = 0; for (let x = c; x.length; x = x[0]) d++;
         const m = new Map(); let cur = m; for (let i = 0; i < 1e5; i++) { const n = new Map(); cur.set('k', n); cur = n; }
         const mc = structuredClone(m);
         let e = 0; for (let x = mc; x.size; x = x.get('k')) e++;
         return [d, c[1].i, e]"
            .to_string(),
    )
    .expect("runs");
    assert_eq!(v, json!([100_000, 99_999, 100_000]));
    // A clone the memory cap cannot hold ends the run cleanly.
    out_of_memory(
        "const big = Array.from({ length: 200000 }, (_, i) => ({ i, s: 'x' }));
         const c = structuredClone(big); return c.length",
        64 << 20,
    );
    // Its work is metered: a fuel limit stops a large clone.
    let mut m = machine(
        "const big = Array.from({ length: 100000 }, (_, i) => [i]); for (;;) structuredClone(big)",
        None,
    )
    .unwrap();
    m.set_fuel_limit(5_000_000);
    let e = run_to_error(&mut m);
    assert!(e.message.starts_with("instruction limit exceeded"), "{e:?}");
}

#[test]
fn codecs_print_and_import_as_node_has_them() {
    let (_, _, logs) = run("import { TextEncoder as E, TextDecoder as D } from 'util';
         console.log(new E(), new D('utf8', { fatal: true }), E === TextEncoder, D === TextDecoder);
         console.log(new Uint8Array(3), Object.prototype.toString.call(new E()));")
    .expect("runs");
    assert_eq!(
        logs,
        [
            "{ encoding: 'utf-8' } TextDecoder { encoding: 'utf-8', fatal: true, ignoreBOM: false } true true",
            "Uint8Array(3) [ 0, 0, 0 ] [object TextEncoder]"
        ]
    );
}
