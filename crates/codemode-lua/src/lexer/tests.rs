//! Unit tests of the lexer: numerals, escapes, long strings, symbols, positions, hints.

use super::*;

fn toks(src: &str) -> Vec<Tok> {
    let mut lx = Lexer::new(src.as_bytes());
    let mut out = Vec::new();
    loop {
        let t = lx.next_token().expect("lex ok");
        if t.tok == Tok::Eof {
            return out;
        }
        out.push(t.tok);
    }
}

fn one(src: &str) -> Tok {
    let v = toks(src);
    assert_eq!(v.len(), 1, "{src}: {v:?}");
    v.into_iter().next().unwrap()
}

fn lex_err(src: &str) -> GuestError {
    let mut lx = Lexer::new(src.as_bytes());
    loop {
        match lx.next_token() {
            Ok(t) if t.tok == Tok::Eof => panic!("expected a lexer error for {src:?}"),
            Ok(_) => {}
            Err(e) => return e,
        }
    }
}

fn s(src: &str) -> Vec<u8> {
    match one(src) {
        Tok::Str(v) => v,
        other => panic!("not a string: {other:?}"),
    }
}

#[test]
fn integers_and_floats_match_lua() {
    // Values checked with lua5.4 (math.type and %.17g).
    assert_eq!(one("0"), Tok::Int(0));
    assert_eq!(one("42"), Tok::Int(42));
    assert_eq!(one("9223372036854775807"), Tok::Int(i64::MAX));
    // Decimal overflow → float.
    assert_eq!(
        one("9223372036854775808"),
        Tok::Float(9223372036854775808.0)
    );
    assert_eq!(
        one("18446744073709551616"),
        Tok::Float(18446744073709551616.0)
    );
    // Hex wraps modulo 2^64.
    assert_eq!(one("0xff"), Tok::Int(255));
    assert_eq!(one("0XA"), Tok::Int(10));
    assert_eq!(one("0x7fffffffffffffff"), Tok::Int(i64::MAX));
    assert_eq!(one("0xffffffffffffffff"), Tok::Int(-1));
    assert_eq!(one("0x8000000000000000"), Tok::Int(i64::MIN));
    assert_eq!(one("0xffffffffffffffffff"), Tok::Int(-1));
    assert_eq!(one("0x10000000000000000"), Tok::Int(0));
    assert_eq!(one("3."), Tok::Float(3.0));
    assert_eq!(one(".5"), Tok::Float(0.5));
    assert_eq!(one("3.25"), Tok::Float(3.25));
    assert_eq!(one("1e10"), Tok::Float(1e10));
    assert_eq!(one("1E+2"), Tok::Float(100.0));
    assert_eq!(one("2.5e-3"), Tok::Float(0.0025));
    assert_eq!(one("5.e3"), Tok::Float(5000.0));
    assert_eq!(one("1e400"), Tok::Float(f64::INFINITY));
    assert_eq!(one("0x1p4"), Tok::Float(16.0));
    assert_eq!(one("0x.8"), Tok::Float(0.5));
    assert_eq!(one("0x1p-2"), Tok::Float(0.25));
    assert_eq!(one("0xA.8p1"), Tok::Float(21.0));
    assert_eq!(one("0x1P+4"), Tok::Float(16.0));
    assert_eq!(one("0x1."), Tok::Float(1.0));
    assert_eq!(one("0x1p-1074"), Tok::Float(f64::from_bits(1)));
    assert_eq!(one("0x1p1024"), Tok::Float(f64::INFINITY));
    // lua5.4: %a of 0x123456789abcdef0123456789.0 is 0x1.23456789abcdfp+96 (rounded once).
    assert_eq!(
        one("0x123456789abcdef0123456789.0"),
        Tok::Float(f64::from_bits(0x45f2_3456_789a_bcdf))
    );
}

/// Hex float literals are rounded once, to nearest, ties to even, by the same parser as
/// `tonumber` (bits from Python's `float.fromhex`; the tails past the 30th digit decide).
#[test]
fn hex_float_literals_round_once() {
    let cases: &[(&str, u64)] = &[
        ("0x1.fb1faa10caea58p-1023", 0x000f_d8fd_5086_5753),
        (
            "0x1.e7c0e4010090180000000000000000000p-1023",
            0x000f_3e07_2008_0481,
        ),
        (
            "0x1.000000000000080000000000000000001p0",
            0x3ff0_0000_0000_0001,
        ),
        (
            "0x1.00000000000008000000000000000000000000000001p0",
            0x3ff0_0000_0000_0001,
        ),
        (
            "0x1.0000000000000800000000000000000000000p0",
            0x3ff0_0000_0000_0000,
        ),
        ("0x1.fffffffffffff8p0", 0x4000_0000_0000_0000),
        ("0x1.fffffffffffff7ffffffffp1023", 0x7fef_ffff_ffff_ffff),
        ("0x1.fffffffffffff8p1023", 0x7ff0_0000_0000_0000),
        (
            "0x.000000000000000000000000000000000001p148",
            0x4030_0000_0000_0000,
        ),
        ("0x1p-1075", 0),
        ("0x1.8p-1075", 1),
        ("0xfffffffffffff.f8p0", 0x4330_0000_0000_0000),
        ("0x1p-99999999999", 0),
        ("0x1p99999999999", 0x7ff0_0000_0000_0000),
    ];
    for &(text, bits) in cases {
        match one(text) {
            Tok::Float(f) => assert_eq!(f.to_bits(), bits, "{text}: got {f:e}"),
            other => panic!("{text}: not a float: {other:?}"),
        }
        assert_eq!(
            crate::number::str_to_number(text.as_bytes()),
            Some(Number::Float(f64::from_bits(bits))),
            "tonumber({text:?})"
        );
    }
}

#[test]
fn malformed_numbers() {
    let e = lex_err("x = 3x");
    assert_eq!(e.message, "malformed number near '3x'");
    assert_eq!(e.location, Some(Location { line: 1, column: 5 }));
    assert_eq!(lex_err("3xyz").message, "malformed number near '3x'");
    assert_eq!(lex_err("0x").message, "malformed number near '0x'");
    assert_eq!(lex_err("1e").message, "malformed number near '1e'");
    assert_eq!(lex_err("1e+").message, "malformed number near '1e+'");
    assert_eq!(lex_err("1..2").message, "malformed number near '1..2'");
    assert_eq!(lex_err("0x1p").message, "malformed number near '0x1p'");
    assert_eq!(
        lex_err("0x1.2.3").message,
        "malformed number near '0x1.2.3'"
    );
    assert_eq!(lex_err("12_3").message, "malformed number near '12_'");
    assert_eq!(lex_err("1f").message, "malformed number near '1f'");
}

#[test]
fn escapes() {
    assert_eq!(
        s(r#""\a\b\f\n\r\t\v\\\"\'""#),
        b"\x07\x08\x0c\n\r\t\x0b\\\"'".to_vec()
    );
    assert_eq!(s("'a\\\nb'"), b"a\nb".to_vec());
    assert_eq!(s("'a\\\r\nb'"), b"a\nb".to_vec());
    assert_eq!(s("'a\\z   \n\t  b'"), b"ab".to_vec());
    assert_eq!(s(r#""\x41\x7a\xff""#), vec![0x41, 0x7a, 0xff]);
    assert_eq!(s(r#""\65\066\0067\255\0""#), vec![65, 66, 6, 55, 255, 0]);
    assert_eq!(s(r#""\u{41}""#), b"A".to_vec());
    assert_eq!(s(r#""\u{E9}""#), "é".as_bytes().to_vec());
    assert_eq!(s(r#""\u{20AC}""#), "€".as_bytes().to_vec());
    assert_eq!(s(r#""\u{1F600}""#), "😀".as_bytes().to_vec());
    // Extended UTF-8 as lua5.4: string.byte("\u{7FFFFFFF}", 1, -1)
    assert_eq!(s(r#""\u{7FFFFFFF}""#), vec![253, 191, 191, 191, 191, 191]);
    assert_eq!(s(r#""\u{10FFFF}""#), vec![244, 143, 191, 191]);
    assert_eq!(s(r#""\u{D800}""#), vec![237, 160, 128]);
    assert_eq!(s(r#""\u{4000000}""#), vec![252, 132, 128, 128, 128, 128]);
    assert_eq!(
        toks("'it''s'"),
        vec![Tok::Str(b"it".to_vec()), Tok::Str(b"s".to_vec())]
    );
}

#[test]
fn escape_errors() {
    let e = lex_err(r#"x = "ab\q""#);
    assert!(
        e.message.starts_with("invalid escape sequence near '\\q'"),
        "{}",
        e.message
    );
    assert_eq!(e.location, Some(Location { line: 1, column: 8 }));
    assert!(
        lex_err(r#""\xZZ""#)
            .message
            .starts_with("hexadecimal digit expected")
    );
    assert!(
        lex_err(r#""\x5""#)
            .message
            .starts_with("hexadecimal digit expected")
    );
    assert!(
        lex_err(r#""\256""#)
            .message
            .starts_with("decimal escape too large")
    );
    assert!(lex_err(r#""\u41""#).message.starts_with("missing '{'"));
    assert!(
        lex_err(r#""\u{}""#)
            .message
            .starts_with("hexadecimal digit expected")
    );
    assert!(lex_err(r#""\u{41""#).message.starts_with("missing '}'"));
    assert!(
        lex_err(r#""\u{80000000}""#)
            .message
            .starts_with("UTF-8 value too large")
    );
    let e = lex_err("x = 'abc\ny'");
    assert!(
        e.message.starts_with("unfinished string near ''abc'"),
        "{}",
        e.message
    );
    assert_eq!(e.location, Some(Location { line: 1, column: 5 }));
    assert!(
        lex_err("x = 'abc")
            .message
            .starts_with("unfinished string near <eof>")
    );
    assert!(
        lex_err("x = 'abc\\")
            .message
            .starts_with("unfinished string near <eof>")
    );
}

#[test]
fn long_strings_and_comments() {
    assert_eq!(s("[[abc]]"), b"abc".to_vec());
    assert_eq!(s("[[\nabc]]"), b"abc".to_vec());
    assert_eq!(s("[[\r\nabc\r\ndef]]"), b"abc\ndef".to_vec());
    assert_eq!(s("[==[a]]b]=]c]==]"), b"a]]b]=]c".to_vec());
    assert_eq!(s("[=[\\n]]=]"), b"\\n]".to_vec());
    assert_eq!(s("[[]]"), Vec::<u8>::new());
    assert_eq!(
        toks("-- comment\n1 --[[ long\n comment ]] 2 --[==[ x ]] ]==] 3 --[ line\n4"),
        vec![Tok::Int(1), Tok::Int(2), Tok::Int(3), Tok::Int(4)]
    );
    assert_eq!(toks("--[=x\n5"), vec![Tok::Int(5)]);
    let e = lex_err("x = [[abc");
    assert!(
        e.message
            .starts_with("unfinished long string (starting at line 1) near <eof>")
    );
    let e = lex_err("\n--[==[ abc ]]");
    assert!(
        e.message
            .starts_with("unfinished long comment (starting at line 2)")
    );
    assert_eq!(e.location, Some(Location { line: 2, column: 1 }));
    assert_eq!(
        lex_err("x = [==x").message,
        "invalid long string delimiter near '[=='"
    );
}

#[test]
fn symbols_and_keywords() {
    use Tok::*;
    assert_eq!(
        toks("+ - * / // % ^ # & ~ | << >> == ~= <= >= < > = ( ) { } [ ] :: ; : , . .. ..."),
        vec![
            Plus, Minus, Star, Slash, DSlash, Percent, Caret, Hash, Amp, Tilde, Pipe, Shl, Shr, Eq,
            Ne, Le, Ge, Lt, Gt, Assign, LParen, RParen, LBrace, RBrace, LBracket, RBracket, DColon,
            Semi, Colon, Comma, Dot, Concat, Dots
        ]
    );
    assert_eq!(
        toks(
            "and break do else elseif end false for function goto if in local nil not or \
              repeat return then true until while"
        ),
        vec![
            And, Break, Do, Else, Elseif, End, False, For, Function, Goto, If, In, Local, Nil, Not,
            Or, Repeat, Return, Then, True, Until, While
        ]
    );
    assert_eq!(
        toks("_x1 Foo andy"),
        vec![Name("_x1".into()), Name("Foo".into()), Name("andy".into())]
    );
    assert_eq!(
        toks("a.b:c"),
        vec![
            Name("a".into()),
            Dot,
            Name("b".into()),
            Colon,
            Name("c".into())
        ]
    );
}

#[test]
fn positions() {
    let src = "local x = 1\n  y = \"s\"\r\n\tz\n\r--c\n[[a\nb]] w";
    let mut lx = Lexer::new(src.as_bytes());
    let mut got = Vec::new();
    loop {
        let t = lx.next_token().unwrap();
        got.push((t.pos.line, t.pos.column));
        if t.tok == Tok::Eof {
            break;
        }
    }
    assert_eq!(
        got,
        vec![
            (1, 1),
            (1, 7),
            (1, 9),
            (1, 11),
            (2, 3),
            (2, 5),
            (2, 7),
            (3, 2),
            (5, 1),
            (6, 5),
            (6, 6)
        ]
    );
}

#[test]
fn shebang_and_bom() {
    assert_eq!(toks("#!/usr/bin/lua\nreturn"), vec![Tok::Return]);
    let mut lx = Lexer::new("#!x\n  y".as_bytes());
    let t = lx.next_token().unwrap();
    assert_eq!((t.pos.line, t.pos.column), (2, 3));
    assert_eq!(toks("\u{FEFF}x"), vec![Tok::Name("x".into())]);
}

#[test]
fn javascript_hints() {
    let cases = [
        (
            "a != b",
            "unexpected symbol near '!='; use ~= for inequality in Lua",
        ),
        (
            "a !== b",
            "unexpected symbol near '!=='; use ~= for inequality in Lua",
        ),
        (
            "!a",
            "unexpected symbol near '!'; use `not x` for negation in Lua",
        ),
        (
            "a && b",
            "unexpected symbol near '&&'; use `and` instead of && in Lua",
        ),
        (
            "a || b",
            "unexpected symbol near '||'; use `or` instead of || in Lua",
        ),
        (
            "x += 1",
            "unexpected symbol near '+='; Lua has no compound assignment; write `x = x + 1`",
        ),
        (
            "x -= 1",
            "unexpected symbol near '-='; Lua has no compound assignment; write `x = x + 1`",
        ),
        (
            "x ..= 'a'",
            "unexpected symbol near '..='; Lua has no compound assignment; write `x = x + 1`",
        ),
        (
            "x++",
            "unexpected symbol near '++'; Lua has no ++ operator; write `x = x + 1`",
        ),
        (
            "a === b",
            "unexpected symbol near '==='; use == for equality in Lua",
        ),
        (
            "`a${b}`",
            "unexpected symbol near '`'; Lua has no template strings; use .. or string.format",
        ),
        (
            "x => x",
            "unexpected symbol near '=>'; Lua has no arrow functions; write `function(x) return x end`",
        ),
        (
            "a ? b : c",
            "unexpected symbol near '?'; Lua has no ?: or ?? operators; write `cond and a or b`",
        ),
        (
            "2 ** 3",
            "unexpected symbol near '**'; use ^ for exponentiation in Lua",
        ),
        (
            "/* c */",
            "unexpected symbol near '/*'; Lua comments are `-- line` and `--[[ block ]]`",
        ),
        ("@", "unexpected symbol near '@'"),
    ];
    for (src, msg) in cases {
        assert_eq!(lex_err(src).message, msg, "{src}");
    }
    let e = lex_err("x = “hi”");
    assert!(
        e.message
            .starts_with("unexpected symbol near '“'; identifiers are ASCII"),
        "{}",
        e.message
    );
    assert_eq!(e.location, Some(Location { line: 1, column: 5 }));
    assert_eq!(lex_err("\x01").message, "unexpected symbol near '<\\1>'");
    // `--` stays a comment and `//` floor division; `-=` inside a comment is fine.
    assert_eq!(
        toks("a // b -- x += 1"),
        vec![Tok::Name("a".into()), Tok::DSlash, Tok::Name("b".into())]
    );
}
