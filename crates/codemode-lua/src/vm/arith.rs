//! Arithmetic, comparison and concatenation (Lua 5.4 semantics, no metatables): the slow paths
//! of the arithmetic and comparison opcodes with their error messages, the integer/float rules
//! (floor division and modulo, shifts, mixed int/float order), string coercion, and the
//! number and `tostring` conversions.

use super::Vm;
use super::meter::BYTES_PER_FUEL;
use crate::heap::Heap;
use crate::proto::ArithOp;
use crate::value::{STRING_ADD_HINT, Throw, Value, VmResult, float_to_int_exact};

impl Vm {
    pub(super) fn concat(&mut self, first: usize, n: usize, breg: u8) -> VmResult<Value> {
        // Blame the operand Lua blames: it concatenates from the right, pairwise, and for a bad
        // pair names the left operand if that one is bad, else the right one.
        let bad = |v: Value| !matches!(v, Value::Str(_) | Value::Int(_) | Value::Float(_));
        let mut blame = None;
        if n >= 2 {
            if bad(self.stack[first + n - 2]) {
                blame = Some(n - 2);
            } else if bad(self.stack[first + n - 1]) {
                blame = Some(n - 1);
            } else {
                blame = (0..n - 2).rev().find(|&i| bad(self.stack[first + i]));
            }
        } else if n == 1 && bad(self.stack[first]) {
            blame = Some(0);
        }
        if let Some(i) = blame {
            let v = self.stack[first + i];
            let missing = if v.is_nil() {
                self.missing_field_hint(breg + i as u8)
            } else {
                String::new()
            };
            return Err(Throw::msg(format!(
                "attempt to concatenate a {} value{}{}",
                v.type_name(),
                self.varinfo(breg + i as u8),
                missing
            )));
        }
        let mut len = 0usize;
        for i in 0..n {
            len += match self.stack[first + i] {
                Value::Str(s) => self.heap.str_bytes(s).len(),
                _ => 24,
            };
        }
        self.heap.reserve_str(len)?;
        self.heap.meter.fuel -= (len / 64) as i64;
        let mut buf = Vec::with_capacity(len);
        let mut acc = 0usize;
        for i in 0..n {
            match self.stack[first + i] {
                Value::Str(s) => {
                    let l = self.heap.str_bytes(s).len();
                    self.append_str(&mut buf, s, 0, l, &mut acc)?;
                }
                Value::Int(x) => buf.extend_from_slice(x.to_string().as_bytes()),
                Value::Float(f) => buf.extend_from_slice(fmt_float(f).as_bytes()),
                _ => {}
            }
        }
        Ok(Value::Str(self.heap.intern_owned(buf)?))
    }

    pub(super) fn arith_slow(
        &self,
        op: ArithOp,
        x: Value,
        y: Value,
        rb: Option<u8>,
        rc: Option<u8>,
    ) -> VmResult<Value> {
        let (nx, ny) = if op.is_bitwise() {
            (x.as_f64().map(|_| x), y.as_f64().map(|_| y))
        } else {
            (to_number(&self.heap, x), to_number(&self.heap, y))
        };
        let (Some(a), Some(b)) = (nx, ny) else {
            let (bad, reg) = if nx.is_none() { (x, rb) } else { (y, rc) };
            if !op.is_bitwise() && (matches!(x, Value::Str(_)) || matches!(y, Value::Str(_))) {
                // Lua's string arithmetic metamethods report both operand types.
                let join = if matches!(op, ArithOp::Add) {
                    STRING_ADD_HINT
                } else {
                    ""
                };
                return Err(Throw::msg(format!(
                    "attempt to {} a '{}' with a '{}'{}",
                    arith_name(op),
                    x.type_name(),
                    y.type_name(),
                    join
                )));
            }
            let what = if op.is_bitwise() {
                "perform bitwise operation on"
            } else {
                "perform arithmetic on"
            };
            let vi = reg.map(|r| self.varinfo(r)).unwrap_or_default();
            let (zero, missing) = match (bad, reg) {
                (Value::Nil, Some(r)) => (self.zero_index_hint(r), self.missing_field_hint(r)),
                _ => (String::new(), String::new()),
            };
            return Err(Throw::msg(format!(
                "attempt to {} a {} value{}{}{}",
                what,
                bad.type_name(),
                vi,
                zero,
                missing
            )));
        };
        arith_num(op, a, b)
    }

    pub(super) fn less_than(&self, x: Value, y: Value) -> VmResult<bool> {
        match (x, y) {
            (Value::Int(a), Value::Int(b)) => Ok(a < b),
            (Value::Float(a), Value::Float(b)) => Ok(a < b),
            (Value::Int(a), Value::Float(b)) => Ok(lt_int_float(a, b)),
            (Value::Float(a), Value::Int(b)) => Ok(lt_float_int(a, b)),
            (Value::Str(a), Value::Str(b)) => Ok(self.heap.str_bytes(a) < self.heap.str_bytes(b)),
            _ => Err(compare_error(x, y)),
        }
    }

    /// Fuel for comparing `x` and `y` beyond the instruction itself: strings are compared byte
    /// by byte (two 100 MB strings with a common prefix take milliseconds), so one unit per
    /// [`BYTES_PER_FUEL`] bytes of the shorter one.
    #[inline]
    pub(super) fn compare_cost(&self, x: Value, y: Value) -> i64 {
        match (x, y) {
            (Value::Str(a), Value::Str(b)) => {
                let n = self
                    .heap
                    .str_bytes(a)
                    .len()
                    .min(self.heap.str_bytes(b).len());
                (n / BYTES_PER_FUEL) as i64
            }
            _ => 0,
        }
    }

    pub(super) fn less_equal(&self, x: Value, y: Value) -> VmResult<bool> {
        match (x, y) {
            (Value::Int(a), Value::Int(b)) => Ok(a <= b),
            (Value::Float(a), Value::Float(b)) => Ok(a <= b),
            (Value::Int(a), Value::Float(b)) => Ok(le_int_float(a, b)),
            (Value::Float(a), Value::Int(b)) => Ok(le_float_int(a, b)),
            (Value::Str(a), Value::Str(b)) => Ok(self.heap.str_bytes(a) <= self.heap.str_bytes(b)),
            _ => Err(compare_error(x, y)),
        }
    }
}

fn arith_name(op: ArithOp) -> &'static str {
    match op {
        ArithOp::Add => "add",
        ArithOp::Sub => "sub",
        ArithOp::Mul => "mul",
        ArithOp::Div => "div",
        ArithOp::Mod => "mod",
        ArithOp::Pow => "pow",
        ArithOp::IDiv => "idiv",
        _ => "perform bitwise operation on",
    }
}

fn compare_error(x: Value, y: Value) -> Throw {
    let (a, b) = (x.type_name(), y.type_name());
    if a == b {
        Throw::msg(format!("attempt to compare two {} values", a))
    } else {
        Throw::msg(format!("attempt to compare {} with {}", a, b))
    }
}

#[inline(always)]
pub(super) fn arith_fast(op: ArithOp, x: &Value, y: &Value) -> Option<Value> {
    // Operands by reference: reading tag and payload separately lets the CPU forward them from
    // the (separate) stores that wrote them, instead of stalling on a 16-byte reload.
    match (x, y) {
        (&Value::Int(a), &Value::Int(b)) => match op {
            ArithOp::Add => Some(Value::Int(a.wrapping_add(b))),
            ArithOp::Sub => Some(Value::Int(a.wrapping_sub(b))),
            ArithOp::Mul => Some(Value::Int(a.wrapping_mul(b))),
            ArithOp::Div => Some(Value::Float(a as f64 / b as f64)),
            ArithOp::Mod if b != 0 => Some(Value::Int(int_mod(a, b))),
            ArithOp::IDiv if b != 0 => Some(Value::Int(int_idiv(a, b))),
            ArithOp::Pow => Some(Value::Float((a as f64).powf(b as f64))),
            ArithOp::BAnd => Some(Value::Int(a & b)),
            ArithOp::BOr => Some(Value::Int(a | b)),
            ArithOp::BXor => Some(Value::Int(a ^ b)),
            ArithOp::Shl => Some(Value::Int(shift_left(a, b))),
            ArithOp::Shr => Some(Value::Int(shift_left(a, b.wrapping_neg()))),
            _ => None,
        },
        (&Value::Float(a), &Value::Float(b)) => float_op(op, a, b),
        (&Value::Int(a), &Value::Float(b)) => float_op(op, a as f64, b),
        (&Value::Float(a), &Value::Int(b)) => float_op(op, a, b as f64),
        _ => None,
    }
}

#[inline(always)]
fn float_op(op: ArithOp, a: f64, b: f64) -> Option<Value> {
    Some(Value::Float(match op {
        ArithOp::Add => a + b,
        ArithOp::Sub => a - b,
        ArithOp::Mul => a * b,
        ArithOp::Div => a / b,
        ArithOp::Mod => float_mod(a, b),
        ArithOp::IDiv => (a / b).floor(),
        ArithOp::Pow => a.powf(b),
        _ => return None,
    }))
}

/// Lua's integer modulo (floor semantics); `b != 0`.
#[inline(always)]
pub(super) fn int_mod(a: i64, b: i64) -> i64 {
    if b == -1 {
        return 0;
    }
    let r = a % b;
    if r != 0 && (r ^ b) < 0 { r + b } else { r }
}

/// Lua's integer floor division; `b != 0`.
#[inline(always)]
pub(super) fn int_idiv(a: i64, b: i64) -> i64 {
    if b == -1 {
        return a.wrapping_neg();
    }
    let q = a / b;
    if (a % b != 0) && ((a ^ b) < 0) {
        q - 1
    } else {
        q
    }
}

/// Lua's float modulo.
#[inline(always)]
pub(super) fn float_mod(a: f64, b: f64) -> f64 {
    let m = a % b;
    if (m > 0.0 && b < 0.0) || (m < 0.0 && b > 0.0) {
        m + b
    } else {
        m
    }
}

/// Lua's shift left (negative shifts right; |shift| >= 64 gives 0; logical).
#[inline(always)]
pub(super) fn shift_left(x: i64, y: i64) -> i64 {
    if y <= -64 || y >= 64 {
        0
    } else if y >= 0 {
        ((x as u64) << y) as i64
    } else {
        ((x as u64) >> (-y)) as i64
    }
}

fn to_int_for_bitwise(v: Value) -> VmResult<i64> {
    match v {
        Value::Int(i) => Ok(i),
        Value::Float(f) => {
            float_to_int_exact(f).ok_or_else(|| Throw::msg("number has no integer representation"))
        }
        _ => Err(Throw::msg(
            "attempt to perform bitwise operation on a non-number value",
        )),
    }
}

/// Arithmetic on two numbers (already coerced): the full Lua 5.4 semantics incl. errors.
pub(super) fn arith_num(op: ArithOp, a: Value, b: Value) -> VmResult<Value> {
    if op.is_bitwise() {
        let x = to_int_for_bitwise(a)?;
        let y = to_int_for_bitwise(b)?;
        return Ok(Value::Int(match op {
            ArithOp::BAnd => x & y,
            ArithOp::BOr => x | y,
            ArithOp::BXor => x ^ y,
            ArithOp::Shl => shift_left(x, y),
            _ => shift_left(x, y.wrapping_neg()),
        }));
    }
    if let (Value::Int(_), Value::Int(y)) = (a, b) {
        match op {
            ArithOp::Mod if y == 0 => return Err(Throw::msg("attempt to perform 'n%0'")),
            ArithOp::IDiv if y == 0 => return Err(Throw::msg("attempt to divide by zero")),
            _ => {}
        }
    }
    arith_fast(op, &a, &b)
        .ok_or_else(|| Throw::msg("attempt to perform arithmetic on a non-number value"))
}

fn lt_int_float(i: i64, f: f64) -> bool {
    if (-(1i64 << 53)..=(1i64 << 53)).contains(&i) {
        return (i as f64) < f;
    }
    if f.is_nan() {
        return false;
    }
    match float_to_int_exact(f.ceil()) {
        Some(fi) => i < fi,
        None => f > 0.0,
    }
}
fn le_int_float(i: i64, f: f64) -> bool {
    if (-(1i64 << 53)..=(1i64 << 53)).contains(&i) {
        return (i as f64) <= f;
    }
    if f.is_nan() {
        return false;
    }
    match float_to_int_exact(f.floor()) {
        Some(fi) => i <= fi,
        None => f > 0.0,
    }
}
fn lt_float_int(f: f64, i: i64) -> bool {
    if (-(1i64 << 53)..=(1i64 << 53)).contains(&i) {
        return f < (i as f64);
    }
    if f.is_nan() {
        return false;
    }
    match float_to_int_exact(f.floor()) {
        Some(fi) => fi < i,
        None => f < 0.0,
    }
}
fn le_float_int(f: f64, i: i64) -> bool {
    if (-(1i64 << 53)..=(1i64 << 53)).contains(&i) {
        return f <= (i as f64);
    }
    if f.is_nan() {
        return false;
    }
    match float_to_int_exact(f.ceil()) {
        Some(fi) => fi <= i,
        None => f < 0.0,
    }
}

/// Number value of `v` with string coercion ("10" → 10), or None.
pub(crate) fn to_number(heap: &Heap, v: Value) -> Option<Value> {
    match v {
        Value::Int(_) | Value::Float(_) => Some(v),
        Value::Str(s) => str_to_number(heap.str_bytes(s)),
        _ => None,
    }
}

/// Parse a Lua numeral (like `tonumber(s)`), see [`crate::number::str_to_number`].
pub(crate) fn str_to_number(b: &[u8]) -> Option<Value> {
    match crate::number::str_to_number(b)? {
        crate::number::Number::Int(i) => Some(Value::Int(i)),
        crate::number::Number::Float(f) => Some(Value::Float(f)),
    }
}

/// Format a float like Lua's `%.14g` (plus ".0" when it looks like an integer).
pub(super) fn fmt_float(f: f64) -> String {
    let mut out = Vec::new();
    crate::number::fmt_float(f, &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// `tostring(v)` text.
pub(crate) fn tostring_text(heap: &Heap, v: Value) -> String {
    match v {
        Value::Nil => "nil".into(),
        Value::Bool(b) => {
            if b {
                "true".into()
            } else {
                "false".into()
            }
        }
        Value::Int(i) => i.to_string(),
        Value::Float(f) => fmt_float(f),
        Value::Str(s) => heap.str_lossy(s),
        Value::Table(_) | Value::HostNs(_) => format!("table: 0x{:012x}", Heap::object_id(v)),
        Value::Closure(_) | Value::HostFn(_) | Value::Native(_) => {
            format!("function: 0x{:012x}", Heap::object_id(v))
        }
        Value::JsonNull => "json.null".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn float_format() {
        assert_eq!(fmt_float(1.0), "1.0");
        assert_eq!(fmt_float(1e15), "1e+15");
        assert_eq!(fmt_float(0.1), "0.1");
        assert_eq!(fmt_float(2f64.powi(63)), "9.2233720368548e+18");
        assert_eq!(fmt_float(123.0), "123.0");
        assert_eq!(fmt_float(-0.0), "-0.0");
        assert_eq!(fmt_float(1e100), "1e+100");
        assert_eq!(fmt_float(std::f64::consts::PI), "3.1415926535898");
        assert_eq!(fmt_float(1e-5), "1e-05");
    }
    #[test]
    fn numbers_parse() {
        assert_eq!(str_to_number(b" 10 "), Some(Value::Int(10)));
        assert_eq!(str_to_number(b"0x10"), Some(Value::Int(16)));
        assert_eq!(str_to_number(b"1e2"), Some(Value::Float(100.0)));
        assert_eq!(str_to_number(b"inf"), None);
        assert_eq!(str_to_number(b"1e"), None);
        assert_eq!(str_to_number(b".5"), Some(Value::Float(0.5)));
        assert_eq!(
            str_to_number(b"9223372036854775808"),
            Some(Value::Float(9223372036854775808.0))
        );
    }
    #[test]
    fn int_ops() {
        assert_eq!(int_mod(-7, 3), 2);
        assert_eq!(int_mod(7, -3), -2);
        assert_eq!(int_idiv(-7, 2), -4);
        assert_eq!(int_idiv(i64::MIN, -1), i64::MIN);
        assert_eq!(shift_left(1, 64), 0);
        assert_eq!(shift_left(-1, -1), i64::MAX);
        assert_eq!(float_mod(-5.5, 2.0), 0.5);
    }
}
