//! Robustness: mutated and hostile programs never panic.

use super::*;

// ----- robustness --------------------------------------------------------------------------------

pub(super) struct XorShift(pub(super) u64);

impl XorShift {
    pub(super) fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    pub(super) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const CORPUS: &[&str] = &[
    "local x <const> = 10\nlocal t = {1, 2, x = 3, [4] = 'four'; f = function(...) return ... end}\n\
     for i = 1, #t do t[i] = t[i] * 2 end\nreturn t",
    "local function fib(n) if n < 2 then return n end return fib(n-1) + fib(n-2) end\nreturn fib(10)",
    "local s = 0\nfor k, v in pairs({a=1, b=2}) do s = s + v end\nwhile s > 0 do s = s - 1 if s == 1 then break end end\n\
     repeat s = s + 1 until s >= 3\nreturn s",
    "local o = {n = 0}\nfunction o.inc(self) self.n = self.n + 1 end\nfunction o:dec() self.n = self.n - 1 end\n\
     o:inc() o.inc(o) o:dec()\nreturn o.n",
    "for i = 1, 3 do\n  if i % 2 == 0 then goto continue end\n  print(i)\n  ::continue::\nend",
    "local r = tools.orders.lookup({ id = \"o1\" })\nlocal ok, err = pcall(tools.ns[\"dash-name\"], {})\n\
     return { ok = ok, err = err, total = r.total // 2 | 1 ~ 3 & 7 << 1 >> 1 }",
    "local s = [[long\nstring]] .. [==[with ]] inside]==] .. \"esc\\n\\t\\x41\\65\\u{48}\\z\n   x\"\n\
     --[[ block\ncomment ]] return s:upper(), #s, -2^2, 2^-3, 0x1p4, .5, 3., 0xff",
    "if a then b() elseif c then d() else e() end; do local x = ... end; return not a or b and c",
];

fn corpus() -> Vec<Vec<u8>> {
    let mut v: Vec<Vec<u8>> = CORPUS.iter().map(|s| s.as_bytes().to_vec()).collect();
    // Also the differential corpus of real programs, when present.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/differential");
    if let Ok(entries) = std::fs::read_dir(&dir) {
        let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for p in paths {
            if p.extension().is_some_and(|e| e == "lua")
                && let Ok(bytes) = std::fs::read(&p)
            {
                v.push(bytes);
            }
        }
    }
    v
}

#[test]
fn corpus_parses() {
    for (i, src) in CORPUS.iter().enumerate() {
        assert!(parse(src).is_ok(), "corpus {i}: {:?}", parse(src).err());
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/differential");
    if let Ok(entries) = std::fs::read_dir(&dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|e| e == "lua") {
                let src = std::fs::read(&p).unwrap();
                if let Err(err) = parse_bytes(&src) {
                    panic!("{}: {err:?}", p.display());
                }
            }
        }
    }
}

#[test]
fn random_bytes_never_panic() {
    const ALPHABET: &[u8] = b" \n\"'[]=-.0123456789xeEpP\\zu{}abc";
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    for _ in 0..20_000 {
        let len = rng.below(64);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        let _ = parse_bytes(&bytes);
        // Printable-ASCII flavoured bytes reach deeper into the lexer.
        let ascii: Vec<u8> = (0..len)
            .map(|_| ALPHABET[rng.below(ALPHABET.len())])
            .collect();
        let _ = parse_bytes(&ascii);
    }
}

#[test]
fn random_token_soup_never_panics() {
    const TOKENS: &[&str] = &[
        "local", "function", "end", "if", "then", "elseif", "else", "while", "do", "for", "in",
        "repeat", "until", "return", "break", "goto", "::", "x", "y", "f", "t", "=", "==", "~=",
        "<", "<=", ">", ">=", "+", "-", "*", "/", "//", "%", "^", "#", "&", "~", "|", "<<", ">>",
        "..", "...", "(", ")", "{", "}", "[", "]", ";", ":", ",", ".", "1", "0x1p4", "2.5", "'s'",
        "[[l]]", "nil", "true", "false", "and", "or", "not", "<const>", "<close>", "\n", "--c\n",
        "!", "+=", "`", "?",
    ];
    let mut rng = XorShift(0x1234_5678_9ABC_DEF1);
    for _ in 0..20_000 {
        let n = rng.below(40);
        let mut s = String::new();
        for _ in 0..n {
            s.push_str(TOKENS[rng.below(TOKENS.len())]);
            s.push(' ');
        }
        if let Err(e) = parse(&s) {
            assert_eq!(e.kind, ErrorKind::ParseError);
            assert!(e.location.is_some(), "{s:?}: {e:?}");
            assert!(!e.message.is_empty());
        }
    }
}

#[test]
fn mutated_programs_never_panic() {
    let corpus = corpus();
    let mut rng = XorShift(0xDEAD_BEEF_CAFE_F00D);
    for _ in 0..3_000 {
        let mut src = corpus[rng.below(corpus.len())].clone();
        for _ in 0..1 + rng.below(4) {
            if src.is_empty() {
                break;
            }
            let at = rng.below(src.len());
            match rng.below(4) {
                0 => {
                    src.remove(at);
                }
                1 => {
                    let b = src[at];
                    src.insert(at, b);
                }
                2 => {
                    let end = (at + 1 + rng.below(8)).min(src.len());
                    let chunk = src[at..end].to_vec();
                    let to = rng.below(src.len());
                    src.splice(to..to, chunk);
                }
                _ => src[at] = rng.next() as u8,
            }
        }
        if let Err(e) = parse_bytes(&src) {
            assert_eq!(e.kind, ErrorKind::ParseError);
        }
    }
}

/// A 1 MB program parses (timing is printed, not asserted: the machine is shared).
#[test]
fn large_program_parses() {
    let unit = "local t = { name = \"item\", price = 12.5, tags = {'a', 'b'} }\n\
                if t.price > 10 and #t.tags == 2 then total = (total or 0) + t.price * 2 end\n\
                for i = 1, 3 do s = (s or '') .. tostring(i) end\n";
    let src = unit.repeat(1_000_000 / unit.len() + 1);
    let start = std::time::Instant::now();
    let b = parse(&src).unwrap();
    eprintln!("parsed {} bytes in {:?}", src.len(), start.elapsed());
    assert_eq!(b.stmts.len(), 3 * (1_000_000 / unit.len() + 1));
}
