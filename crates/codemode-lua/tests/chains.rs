//! Long binary-operator chains (`1 + 1 + ... + 1` with 100,000 terms, long `and`/`or`,
//! comparison, bitwise and `..` runs): they parse into flat nodes, compile in a loop with a
//! constant number of registers, and run with Lua's left-to-right semantics. Every program here
//! is parsed, compiled and run on a 256 KiB thread, which proves that nothing recurses per term
//! (a debug build spends hundreds of bytes of Rust stack per recursion level).
//!
//! Programs short enough for lua5.4 are also compared with it in the differential corpus
//! (`tests/differential/296_chain_*` to `299_chain_*`).

use codemode_lua::{Budgets, Env, ErrorKind, GuestError, Machine, Step, compile};
use serde_json::{Value as Json, json};

/// Stack of the threads that compile and run the programs.
const SMALL_STACK: usize = 256 * 1024;

/// Compile and run `src` to completion on a [`SMALL_STACK`] thread: the exported value (or the
/// error) and the logs.
fn run_small(src: String) -> (Result<Json, GuestError>, Vec<String>) {
    run_on(SMALL_STACK, src)
}

fn run_on(stack: usize, src: String) -> (Result<Json, GuestError>, Vec<String>) {
    std::thread::Builder::new()
        .stack_size(stack)
        .spawn(move || {
            let p = match compile(&src) {
                Ok(p) => p,
                Err(e) => return (Err(e), vec![]),
            };
            let mut m = Machine::new(&p, &Env::default(), Budgets::default());
            loop {
                match m.run(1_000_000) {
                    Step::Yield => continue,
                    Step::Done(v) => return (Ok(v), m.take_logs()),
                    Step::Error(e) => return (Err(e), m.take_logs()),
                    Step::HostCall(c) => panic!("unexpected host call {c:?}"),
                }
            }
        })
        .expect("spawn")
        .join()
        .expect("no stack overflow")
}

fn val(src: String) -> Json {
    match run_small(src.clone()).0 {
        Ok(v) => v,
        Err(e) => panic!("program failed: {e:?}\n{}", &src[..src.len().min(300)]),
    }
}

/// Registers the main chunk of `src` needs (compiled on a [`SMALL_STACK`] thread).
fn main_max_stack(src: String) -> u8 {
    std::thread::Builder::new()
        .stack_size(SMALL_STACK)
        .spawn(move || compile(&src).map(|p| p.data().protos[0].max_stack))
        .expect("spawn")
        .join()
        .expect("no stack overflow")
        .expect("compiles")
}

#[test]
fn sum_of_100k_terms() {
    assert_eq!(
        val(format!("return 0{}", " + 1".repeat(100_000))),
        json!(100_000)
    );
    // Locals, fields and mixed precedence: each product is its own short chain.
    assert_eq!(
        val(format!(
            "local a, t = 2, {{k = 3}} return 0{}",
            " + a * t.k - 1".repeat(50_000)
        )),
        json!(250_000)
    );
    assert_eq!(
        val(format!(
            "local x = 1.5 return x{}",
            " * 1 / 1 - 0.5 + 0.5".repeat(25_000)
        )),
        json!(1.5)
    );
    // Bitwise runs mix three priorities in one chain.
    assert_eq!(
        val(format!("return 0{}", " | 1 << 2 & 7 ~ 3".repeat(20_000))),
        json!(7)
    );
}

/// A chain assigned to a local it reads: the accumulator is a temporary, never the local.
#[test]
fn chain_assigned_to_a_local_it_reads() {
    assert_eq!(
        val(format!(
            "local x = 3 x = x{} return x",
            " + x".repeat(1_000)
        )),
        json!(3003)
    );
    assert_eq!(
        val("local x = 5 x = x + 1 + x * 2 - x return x".into()),
        json!(11)
    );
    assert_eq!(
        val("local x = 2 x = nil and 1 or x and x + 1 or 0 return x".into()),
        json!(3)
    );
    assert_eq!(
        val("local x = 'a' x = x .. 'b' .. x .. x return x".into()),
        json!("abaa")
    );
}

/// `and`/`or` chains evaluate left to right and stop as soon as the result is known, in value
/// and in condition position.
#[test]
fn and_or_chains_short_circuit() {
    let prelude = "local n = 0 local function p(v) n = n + 1 return v end ";
    let src = format!(
        "{prelude} local v = p(1){} return {{v, n}}",
        " and p(1)".repeat(50_000)
    );
    assert_eq!(val(src), json!([1, 50_001]));
    let src = format!(
        "{prelude} local v = p(false){} return {{v, n}}",
        " or p(false)".repeat(50_000)
    );
    assert_eq!(val(src), json!([false, 50_001]));
    // `or` stops at the first true operand; `and` groups bind tighter.
    let src = format!(
        "{prelude} local v = p(nil){} or p('hit'){} return {{v, n}}",
        " or p(false) and p(1)".repeat(20_000),
        " or p(2)".repeat(20_000)
    );
    assert_eq!(val(src), json!(["hit", 20_002]));
    let src = format!(
        "{prelude} local hits = 0 for i = 1, 3 do if p(i) > 1{} then hits = hits + 1 end end \
         return {{hits, n}}",
        " and p(true)".repeat(10_000)
    );
    assert_eq!(val(src), json!([2, 3 + 2 * 10_000]));
    let src = format!(
        "{prelude} local c = 0 while not (p(c) >= 3{}) do c = c + 1 end return {{c, n}}",
        " or p(false)".repeat(5_000)
    );
    assert_eq!(val(src), json!([3, 3 * 5_001 + 1]));
}

#[test]
fn comparison_chains() {
    assert_eq!(
        val(
            "local a, b = 1, 2 return {a < b == true, a > b == false, 1 == 1 == true ~= false}"
                .into()
        ),
        json!([true, true, true])
    );
    let chain = format!("1 < 2{}", " == true".repeat(10_001));
    assert_eq!(val(format!("return {chain}")), json!(true));
    assert_eq!(
        val(format!(
            "if {chain} then return 'then' else return 'else' end"
        )),
        json!("then")
    );
    let e = run_small("return 1 < 2 < 3".into()).0.unwrap_err();
    assert!(
        e.message.contains("attempt to compare boolean with number"),
        "{}",
        e.message
    );
}

/// `..` runs longer than Lua's ~200 operands are accepted (deliberately: Lua stops with "C stack
/// overflow") and joined 200 operands at a time, left to right.
#[test]
fn long_concat_runs() {
    let src = format!("local a = 'x' return #(a{})", " .. a".repeat(100_000));
    assert_eq!(val(src), json!(100_001));
    let src = format!(
        "return 0{}",
        (1..5_000)
            .map(|i| format!(" .. {}", i % 10))
            .collect::<String>()
    );
    let expected: String = (0..5_000)
        .map(|i| char::from(b'0' + (i % 10) as u8))
        .collect();
    assert_eq!(val(src), json!(expected));
    // Numbers (integers and floats) convert as Lua does; tighter operators bind first.
    assert_eq!(
        val(format!("return 1.5{}", " .. 2 + 1 .. 'x'".repeat(300)).to_string())
            .as_str()
            .map(str::len),
        Some(3 + 300 * 2)
    );
    // A bad operand anywhere fails with Lua's message.
    let src = format!(
        "local t = {{}} return 'a'{} .. t .. 'b'",
        " .. 'a'".repeat(1_000)
    );
    let e = run_small(src).0.unwrap_err();
    assert!(
        e.message
            .contains("attempt to concatenate a table value (local 't')"),
        "{}",
        e.message
    );
}

/// Chains need a constant number of registers, so a long chain fits in a function that already
/// holds 240 locals (the limit is 250 registers).
#[test]
fn chains_fit_next_to_many_locals() {
    let locals: String = (0..240).map(|i| format!("local v{i} = {i}\n")).collect();
    let src = format!("{locals}return v239{}", " + v1".repeat(20_000));
    assert_eq!(val(src), json!(239 + 20_000));
    let src = format!("{locals}return #(v1{})", " .. v1".repeat(2_000));
    assert_eq!(val(src), json!(2_001));
    let src = format!("{locals}return v1 < v2{}", " and v3 or v4".repeat(2_000));
    assert_eq!(val(src), json!(3));
}

#[test]
fn chains_compile_to_few_registers() {
    // (`max_stack` counts 4 spare registers.)
    let n = main_max_stack(format!(
        "local x = 1 return x{}",
        " + x * 2 - 1".repeat(20_000)
    ));
    assert!(n <= 8, "{n}");
    let n = main_max_stack(format!(
        "local x = 1 return x{}",
        " and x or x".repeat(20_000)
    ));
    assert!(n <= 8, "{n}");
    let n = main_max_stack(format!("local x = 'a' return x{}", " .. x".repeat(20_000)));
    assert!((200..=206).contains(&n), "{n}");
}

/// A 1,000,000-term chain, close to the 4 MiB source limit, compiles and runs (or, one byte over
/// the limit, fails cleanly with the size error).
#[test]
fn chain_near_the_source_limit() {
    let n = 1_000_000;
    let src = format!("return 0{}", "+1".repeat(n));
    assert!(src.len() < codemode_lua::limits::MAX_SOURCE_BYTES);
    assert_eq!(val(src), json!(n));
    let over = format!(
        "return 0{}",
        "+1".repeat(codemode_lua::limits::MAX_SOURCE_BYTES / 2)
    );
    let e = run_small(over).0.unwrap_err();
    assert_eq!(e.kind, ErrorKind::ParseError);
    assert!(e.message.starts_with("program too large"), "{}", e.message);
}

/// `^` and unary operators are still right-nested, one level each, like Lua: past the nesting
/// limit they are a ParseError (never a stack overflow), also inside a long flat chain. (Run on
/// a 1 MiB thread: recursion up to the nesting limit needs more than [`SMALL_STACK`].)
#[test]
fn power_chains_keep_the_nesting_limit() {
    for src in [
        format!("return 2{}", " ^ 1".repeat(100_000)),
        format!("return 1 + 2{} + 1", " ^ 1".repeat(1_000)),
        format!("return 1 + {}1 + 1", "- ".repeat(300)),
    ] {
        let e = run_on(1024 * 1024, src).0.unwrap_err();
        assert_eq!(e.kind, ErrorKind::ParseError);
        assert!(
            e.message
                .starts_with("expression/block nesting too deep (limit 200)"),
            "{}",
            e.message
        );
    }
    assert_eq!(
        val(format!("return 1{}", " + 2 ^ 1".repeat(10_000))),
        json!(20_001.0)
    );
}
