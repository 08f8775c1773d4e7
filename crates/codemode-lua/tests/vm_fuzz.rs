//! Generated programs (random expressions and statements over values of every type) must never
//! panic the host: each either finishes or fails with a GuestError.

use codemode_lua::{Budgets, Env, Machine, Step, compile};

/// Small deterministic PRNG (xorshift64*).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[(self.next() % xs.len() as u64) as usize]
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const ATOMS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "3.5",
    "-0.0",
    "1e308",
    "0/0",
    "math.maxinteger",
    "math.mininteger",
    "'10'",
    "'abc'",
    "''",
    "nil",
    "true",
    "false",
    "{}",
    "{1, 2, 3}",
    "{a = 1}",
    "x",
    "y",
    "t",
    "s",
    "f",
    "print",
    "tools",
    "json.null",
    "(1 // 0.0)",
    "#t",
    "...",
];
const BINOPS: &[&str] = &[
    "+", "-", "*", "/", "//", "%", "^", "..", "==", "~=", "<", "<=", ">", ">=", "and", "or", "&",
    "|", "~", "<<", ">>",
];
const UNOPS: &[&str] = &["-", "not ", "#", "~"];
const CALLS: &[&str] = &[
    "tostring",
    "tonumber",
    "type",
    "select",
    "string.rep",
    "string.sub",
    "table.concat",
    "table.insert",
    "math.floor",
    "ipairs",
    "pairs",
    "next",
    "rawlen",
    "string.format",
    "table.unpack",
    "math.max",
    "utf8.char",
    "json.encode",
    "f",
];

fn expr(r: &mut Rng, depth: u32) -> String {
    if depth == 0 {
        return r.pick(ATOMS).to_string();
    }
    match r.below(8) {
        0 | 1 => format!(
            "({} {} {})",
            expr(r, depth - 1),
            r.pick(BINOPS),
            expr(r, depth - 1)
        ),
        2 => format!("({}{})", r.pick(UNOPS), expr(r, depth - 1)),
        3 => format!(
            "{}({}, {})",
            r.pick(CALLS),
            expr(r, depth - 1),
            expr(r, depth - 1)
        ),
        4 => format!(
            "{}[{}]",
            r.pick(&["t", "x", "s", "tools"]),
            expr(r, depth - 1)
        ),
        5 => format!("{{{}, k = {}}}", expr(r, depth - 1), expr(r, depth - 1)),
        6 => format!(
            "(function(a, ...) return a, ... end)({}, {})",
            expr(r, depth - 1),
            expr(r, depth - 1)
        ),
        _ => r.pick(ATOMS).to_string(),
    }
}

fn stmt(r: &mut Rng, depth: u32) -> String {
    match r.below(16) {
        9 if depth > 0 => format!(
            "local n = 0 while n < {} do n = n + 1 {} end",
            r.below(4),
            stmt(r, depth - 1)
        ),
        10 if depth > 0 => format!(
            "local n = 0 repeat n = n + 1 {} until n > {}",
            stmt(r, depth - 1),
            r.below(3)
        ),
        11 => format!(
            "y = s:{}({})",
            r.pick(&["rep", "sub", "upper", "len", "byte", "format", "nosuch"]),
            expr(r, 1)
        ),
        12 => format!(
            "local c = function(v) x = {} return v end c({})",
            expr(r, 1),
            expr(r, 1)
        ),
        13 => format!("table.sort(t, function(a, b) return {} end)", expr(r, 1)),
        14 => {
            let arg = if r.below(2) == 0 {
                r.pick(&["{id = 1}", "{}", "x", "s", "nil", "{1, 2}"])
                    .to_string()
            } else {
                expr(r, 1)
            };
            let tool = r.pick(&["orders.lookup", "orders.nope", "util", "ns"]);
            format!("y = tools.{}({}) x = y and y.ok and #y.ok or x", tool, arg)
        }
        15 if depth > 0 => format!(
            "for i = 1, 3 do if {} then goto cont end {} ::cont:: end",
            expr(r, 1),
            stmt(r, depth - 1)
        ),
        0 => format!("x = {}", expr(r, 2)),
        1 => format!("t[{}] = {}", expr(r, 1), expr(r, 2)),
        2 => format!("local z = {} y = z", expr(r, 2)),
        3 if depth > 0 => format!(
            "for i = {}, {} do {} end",
            r.below(3),
            r.below(5),
            stmt(r, depth - 1)
        ),
        4 if depth > 0 => format!(
            "if {} then {} else {} end",
            expr(r, 2),
            stmt(r, depth - 1),
            stmt(r, depth - 1)
        ),
        5 if depth > 0 => format!("for k, v in pairs(t) do {} end", stmt(r, depth - 1)),
        6 => format!("print({})", expr(r, 2)),
        7 => format!("s = tostring({}) .. s", expr(r, 1)),
        _ => format!("pcall(function(...) return {} end)", expr(r, 3)),
    }
}

#[test]
fn generated_programs_never_panic() {
    // FUZZ_N / FUZZ_SEED run a longer or different round locally.
    let n: u64 = std::env::var("FUZZ_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    let seed: u64 = std::env::var("FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x9E37_79B9_7F4A_7C15);
    let mut r = Rng(seed | 1);
    let mut failed = 0;
    let stats = std::sync::Mutex::new([0u32; 4]);
    for _ in 0..n {
        let mut src = String::from(
            "local x, y, t, s = 1, 'a', {1, 2, k = 'v'}, 'str'\nlocal function f(a, b) return a, b end\n",
        );
        for _ in 0..(1 + r.below(6)) {
            src.push_str(&format!(
                "pcall(function(...) {} end, 1, 'two')\n",
                stmt(&mut r, 2)
            ));
        }
        src.push_str(&format!(
            "return tostring(x) .. tostring(y) .. #s .. tostring(({}))\n",
            expr(&mut r, 2)
        ));
        if std::env::var("FUZZ_SHOW").is_ok() && src.contains("tools.") {
            eprintln!("{}", src);
        }
        let outcome = std::panic::catch_unwind(|| {
            let Ok(p) = compile(&src) else {
                stats.lock().unwrap()[0] += 1;
                return;
            };
            let env = Env {
                tool_paths: vec!["orders.lookup".into(), "util".into(), "ns.a".into()],
                extension_paths: vec![],
                async_extension_paths: Vec::new(),
                missing: None,
                ..Env::default()
            };
            let mut m = Machine::new(
                &p,
                &env,
                Budgets {
                    max_memory_bytes: Some(8 << 20),
                },
            );
            for _ in 0..200 {
                match m.run(10_000) {
                    Step::Yield => continue,
                    Step::Done(_) => {
                        stats.lock().unwrap()[1] += 1;
                        return;
                    }
                    Step::Error(_) => {
                        stats.lock().unwrap()[2] += 1;
                        return;
                    }
                    Step::HostCall(c) => {
                        stats.lock().unwrap()[3] += 1;
                        let reply = match c.args.len() % 3 {
                            0 => codemode_lua::HostReply::Value(
                                serde_json::json!({"ok": [1, {}, []], "n": 2.5}),
                            ),
                            1 => codemode_lua::HostReply::error(
                                codemode_lua::ErrorKind::ToolFailure,
                                "failed",
                                Vec::new(),
                            ),
                            _ => codemode_lua::HostReply::Value(serde_json::Value::Null),
                        };
                        m.resume(reply);
                    }
                }
            }
        });
        if outcome.is_err() {
            failed += 1;
            eprintln!("PANIC on program:\n{}", src);
        }
    }
    assert_eq!(failed, 0);
    let st = *stats.lock().unwrap();
    eprintln!(
        "compile errors {}, done {}, runtime errors {}, host calls {}",
        st[0], st[1], st[2], st[3]
    );
    // Most programs must get past the compiler, and a fair share must run to the end.
    assert!(st[0] < n as u32 / 5 && st[1] > n as u32 / 8, "{:?}", st);
}
