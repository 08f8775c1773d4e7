//! The dispatch loop, as PUC Lua's lvm.c: one `match` over [`Op`] per instruction, fuel
//! charged where execution can repeat, and numeric `for` preparation.

use super::*;
use crate::restart::restartable;

impl Vm {
    pub(super) fn execute(&mut self, stop: usize) -> VmResult<Exit> {
        let prog = self.prog.clone();
        'frame: loop {
            let fi = self.frames.len() - 1;
            // Only what every instruction needs is read here (the rest of the frame when used).
            let (base, cl, fproto, fpc) = {
                let f = &self.frames[fi];
                (f.base, f.closure, f.proto, f.pc)
            };
            let proto = &prog.protos[fproto as usize];
            let code = &proto.code[..];
            let kb = proto.k_offset as usize;
            let mut pc = fpc;

            macro_rules! r {
                ($x:expr) => {
                    self.stack[base + $x as usize]
                };
            }
            macro_rules! k {
                ($x:expr) => {
                    self.kflat[kb + $x as usize]
                };
            }
            macro_rules! save {
                () => {
                    self.frames[fi].pc = pc;
                };
            }
            macro_rules! tri {
                ($e:expr) => {
                    match $e {
                        Ok(v) => v,
                        Err(e) => {
                            self.frames[fi].pc = pc;
                            return Err(e);
                        }
                    }
                };
            }
            macro_rules! fail {
                ($e:expr) => {{
                    self.frames[fi].pc = pc;
                    return Err($e);
                }};
            }

            // Fuel is charged where execution can repeat (backward jumps, calls), weighted by
            // the number of instructions repeated, so straight-line code costs nothing extra
            // and every loop or recursion still reaches a yield point.
            macro_rules! charge {
                ($n:expr) => {
                    // Check before charging, so a charge larger than a whole slice still makes
                    // progress on the next slice.
                    if self.heap.meter.fuel <= 0 {
                        if stop == 0 && self.nested.is_empty() {
                            self.frames[fi].pc = pc - 1;
                            return Ok(Exit::Yield);
                        }
                        save!();
                        tri!(self.refuel_nested());
                    }
                    self.heap.meter.fuel -= $n as i64;
                };
            }

            // After an instruction that charged fuel for data work (copies, comparisons,
            // concatenation, a native's work) or found a collection due: past the slice, yield
            // at this instruction boundary (the next instruction runs on resume). Without it,
            // straight-line code of heavy instructions would run to the next backward jump or
            // call however long it takes, and an inline stretch could not end.
            macro_rules! settle {
                () => {
                    if self.heap.meter.fuel < 0 {
                        if stop == 0 && self.nested.is_empty() {
                            self.frames[fi].pc = pc;
                            return Ok(Exit::Yield);
                        }
                        save!();
                        tri!(self.refuel_nested());
                    }
                };
            }

            // An arithmetic instruction `R[a] = x op y`: the fast path on numbers of one type
            // (`arith_fast`, or `fast = ..`), else the full operation with string coercion and
            // the error naming registers `rb`/`rc` (`arith_slow`).
            macro_rules! op_arith {
                ($a:expr, fast = $fast:expr, $op:expr, $x:expr, $y:expr, $rb:expr, $rc:expr) => {{
                    r!($a) = match $fast {
                        Some(v) => v,
                        None => {
                            let (x, y) = ($x, $y);
                            save!();
                            tri!(self.arith_slow($op, x, y, $rb, $rc))
                        }
                    }
                }};
                ($a:expr, $op:expr, $x:expr, $y:expr, $rb:expr, $rc:expr) => {
                    op_arith!($a, fast = arith_fast($op, &$x, &$y), $op, $x, $y, $rb, $rc)
                };
            }

            // `R[a] = R[b] op i` for an integer literal `i` (in the shape of `op_arith_num`).
            macro_rules! op_arith_i {
                ($a:expr, $b:expr, $i:expr, $op:expr,
                 int |$x:ident, $y:ident| $guard:expr => $int:expr,
                 float |$p:ident, $q:ident| $flt:expr) => {{
                    let $y = $i as i64;
                    match r!($b) {
                        Value::Int($x) if $guard => r!($a) = $int,
                        Value::Float($p) => {
                            let $q = $y as f64;
                            r!($a) = Value::Float($flt)
                        }
                        x => {
                            save!();
                            r!($a) = tri!(self.arith_slow($op, x, Value::Int($y), Some($b), None))
                        }
                    }
                }};
            }

            // `R[a] = R[b] op y` on numbers, `y` a constant (`K[k]`, the specialised `ArithK`s)
            // or register `rc` (`+`, `-`): two integers give `$int` when `$guard` holds,
            // numbers otherwise give the float `$flt` (mixed operands converted), everything
            // else takes `arith_slow` (string coercion, the error naming the registers).
            macro_rules! op_arith_num {
                ($a:expr, $b:expr, $y:expr, $rc:expr, $op:expr,
                 int |$x:ident, $yy:ident| $guard:expr => $int:expr,
                 float |$p:ident, $q:ident| $flt:expr) => {{
                    match (&r!($b), &$y) {
                        (&Value::Int($x), &Value::Int($yy)) if $guard => r!($a) = $int,
                        (&Value::Float($p), &Value::Float($q)) => r!($a) = Value::Float($flt),
                        (&Value::Int(i), &Value::Float($q)) => {
                            let $p = i as f64;
                            r!($a) = Value::Float($flt)
                        }
                        (&Value::Float($p), &Value::Int(j)) => {
                            let $q = j as f64;
                            r!($a) = Value::Float($flt)
                        }
                        _ => {
                            let (x, y) = (r!($b), $y);
                            save!();
                            r!($a) = tri!(self.arith_slow($op, x, y, Some($b), $rc))
                        }
                    }
                }};
            }

            // The `Jmp` that follows a test instruction, done at once when the test holds (as
            // PUC Lua's `donextjump`: one dispatch fewer); charged like the `Jmp` itself, and a
            // yield there leaves the pc at the `Jmp`, which then runs on resume as it would.
            macro_rules! next_jump {
                () => {
                    if let Op::Jmp { off } = code[pc] {
                        pc += 1;
                        if off < 0 {
                            charge!(-(off as i64));
                        }
                        pc = (pc as i64 + off as i64) as usize;
                    }
                };
            }
            // A test's outcome: the next instruction (its jump) is skipped when `res != k`.
            macro_rules! cond_jump {
                ($res:expr, $k:expr) => {
                    if $res != $k {
                        pc += 1;
                    } else {
                        next_jump!();
                    }
                };
            }

            // A comparison followed by its jump: integers compare inline with `$int`; other
            // values through `$slow` (numbers of mixed types, strings, errors), charged by the
            // bytes compared and settled. The jump is skipped when the result is not `k`.
            macro_rules! op_order {
                ($x:expr, $y:expr, $k:expr, $int:tt, |$p:ident, $q:ident| $slow:expr) => {{
                    let mut heavy = false;
                    let res = match (&$x, &$y) {
                        (&Value::Int(i), &Value::Int(j)) => i $int j,
                        _ => {
                            let ($p, $q) = ($x, $y);
                            save!();
                            self.heap.meter.fuel -= self.compare_cost($p, $q);
                            heavy = true;
                            tri!($slow)
                        }
                    };
                    if heavy {
                        // Settled first at the test's outcome; the jump then runs on its own.
                        if res != $k {
                            pc += 1;
                        }
                        settle!();
                    } else {
                        cond_jump!(res, $k);
                    }
                }};
            }

            // `R[t][key] = R[v]` (the error for what cannot be indexed names register `t`).
            macro_rules! op_set {
                ($t:expr, $key:expr, $v:expr) => {{
                    let (obj, key, val) = (r!($t), $key, r!($v));
                    if let Value::Table(tr) = obj {
                        tri!(self.heap.table_set(tr, key, val))
                    } else {
                        save!();
                        tri!(self.set_index(obj, key, val, $t))
                    }
                }};
            }

            // Calling a value that is not a function, in stack slot `func` (see
            // `Vm::not_callable`): a refused host call suspends the machine; else the error.
            macro_rules! not_callable {
                ($callee:expr, $func:expr, $site:expr) => {
                    match self.not_callable($callee, $func, $site) {
                        Ok(call) => return Ok(Exit::Host(Box::new(call))),
                        Err(e) => fail!(e),
                    }
                };
            }

            // The start of a call instruction on register `a` with `b - 1` arguments (0: up to
            // `top`): charge the call and save the pc. Gives the function's slot, the argument
            // count and the function.
            macro_rules! call_args {
                ($a:expr, $b:expr) => {{
                    charge!(CALL_FUEL);
                    let func = base + $a as usize;
                    let nargs = if $b == 0 {
                        self.top - func - 1
                    } else {
                        $b as usize - 1
                    };
                    save!();
                    (func, nargs, self.stack[func])
                }};
            }

            // Call the function in `func` with `nargs` arguments from instruction register
            // `a`: a Lua callee continues in its frame; after a native, collect if due and
            // settle (unless it pushed a protected frame); a host function suspends.
            macro_rules! call_value {
                ($func:expr, $nargs:expr, $nresults:expr, $a:expr) => {
                    match self.precall($func, $nargs, $nresults, FrameKind::Normal) {
                        Ok(CallRes::Lua) => continue 'frame,
                        Ok(CallRes::Done) => {
                            self.maybe_gc();
                            if self.frames.len() != fi + 1 {
                                // A pcall frame was pushed by a native path.
                                continue 'frame;
                            }
                            settle!();
                        }
                        Ok(CallRes::Host(call)) => return Ok(Exit::Host(call)),
                        Err(e) => return Err(self.fix_arg_error(e, $a)),
                    }
                };
            }

            loop {
                let op = code[pc];
                pc += 1;
                match op {
                    Op::Move { a, b } => r!(a) = r!(b),
                    Op::LoadK { a, k } => r!(a) = k!(k),
                    Op::LoadInt { a, i } => r!(a) = Value::Int(i as i64),
                    Op::LoadNil { a, n } => {
                        for i in 0..=n as usize {
                            self.stack[base + a as usize + i] = Value::Nil;
                        }
                    }
                    Op::LoadBool { a, v } => r!(a) = Value::Bool(v),
                    Op::GetUpval { a, u } => r!(a) = self.get_upval(cl, u),
                    Op::SetUpval { a, u } => {
                        let v = r!(a);
                        self.set_upval(cl, u, v);
                    }
                    Op::GetGlobal { a, k } => {
                        let key = k!(k);
                        let Value::Str(s) = key else {
                            unreachable_const()
                        };
                        r!(a) = self.heap.table(self.globals).get_str(s);
                    }
                    Op::SetGlobal { a, k } => {
                        let key = k!(k);
                        let v = r!(a);
                        let g = self.globals;
                        tri!(self.heap.table_set(g, key, v));
                    }
                    Op::GetField { a, t, k } => {
                        let obj = r!(t);
                        let key = k!(k);
                        let v = if let Value::Table(tr) = obj {
                            match key {
                                Value::Str(s) => self.heap.table(tr).get_str(s),
                                _ => self.heap.table_get(tr, key),
                            }
                        } else {
                            save!();
                            tri!(self.index_slow(obj, key, t, fi, pc, true))
                        };
                        if let (Value::Nil, Value::Str(x), Value::Str(y)) =
                            (v, key, self.length_key)
                            && x == y
                        {
                            self.note_length(obj, t, fi, pc);
                        }
                        r!(a) = v;
                    }
                    Op::GetTable { a, t, key } => {
                        let obj = r!(t);
                        let kv = r!(key);
                        let v = match obj {
                            Value::Table(tr) => {
                                if let Value::Int(i) = kv {
                                    self.heap.table(tr).get_int(i)
                                } else {
                                    self.heap.table_get(tr, kv)
                                }
                            }
                            _ => {
                                save!();
                                tri!(self.index_slow(obj, kv, t, fi, pc, false))
                            }
                        };
                        r!(a) = v;
                    }
                    Op::SetField { t, k, v } => op_set!(t, k!(k), v),
                    Op::SetTable { t, key, v } => op_set!(t, r!(key), v),
                    Op::NewTable { a, narr, nhash } => {
                        save!();
                        self.maybe_gc();
                        let t = tri!(self.heap.new_table(narr as usize, nhash as usize));
                        r!(a) = Value::Table(t);
                        settle!();
                    }
                    Op::SetList { a, n, start } => {
                        let Value::Table(t) = r!(a) else {
                            unreachable_const()
                        };
                        let first = base + a as usize + 1;
                        let count = if n == 0 { self.top - first } else { n as usize };
                        self.heap.meter.fuel -= (count / VALUES_PER_FUEL) as i64;
                        tri!(self.heap.table_set_list(
                            t,
                            start as i64,
                            &self.stack[first..first + count]
                        ));
                        settle!();
                    }
                    Op::SelfOp { a, b, k } => {
                        let obj = r!(b);
                        let key = k!(k);
                        r!(a + 1) = obj;
                        let v = match (obj, key) {
                            (Value::Table(tr), Value::Str(s)) => self.heap.table(tr).get_str(s),
                            _ => {
                                save!();
                                tri!(self.index_slow(obj, key, b, fi, pc, false))
                            }
                        };
                        r!(a) = v;
                    }
                    Op::Add { a, b, c } => op_arith_num!(a, b, r!(c), Some(c), ArithOp::Add,
                        int |x, y| true => Value::Int(x.wrapping_add(y)),
                        float |p, q| p + q),
                    Op::Sub { a, b, c } => op_arith_num!(a, b, r!(c), Some(c), ArithOp::Sub,
                        int |x, y| true => Value::Int(x.wrapping_sub(y)),
                        float |p, q| p - q),
                    Op::Arith { op, a, b, c } => op_arith!(a, op, r!(b), r!(c), Some(b), Some(c)),
                    Op::ArithK { op, a, b, k } => op_arith!(a, op, r!(b), k!(k), Some(b), None),
                    Op::MulI { a, b, i } => op_arith_i!(a, b, i, ArithOp::Mul,
                        int |x, y| true => Value::Int(x.wrapping_mul(y)),
                        float |p, q| p * q),
                    Op::DivI { a, b, i } => op_arith_i!(a, b, i, ArithOp::Div,
                        int |x, y| true => Value::Float(x as f64 / y as f64),
                        float |p, q| p / q),
                    Op::ModI { a, b, i } => op_arith_i!(a, b, i, ArithOp::Mod,
                        int |x, y| y != 0 => Value::Int(int_mod(x, y)),
                        float |p, q| float_mod(p, q)),
                    Op::IDivI { a, b, i } => op_arith_i!(a, b, i, ArithOp::IDiv,
                        int |x, y| y != 0 => Value::Int(int_idiv(x, y)),
                        float |p, q| (p / q).floor()),
                    Op::AddK { a, b, k } => op_arith_num!(a, b, k!(k), None, ArithOp::Add,
                        int |x, y| true => Value::Int(x.wrapping_add(y)),
                        float |p, q| p + q),
                    Op::SubK { a, b, k } => op_arith_num!(a, b, k!(k), None, ArithOp::Sub,
                        int |x, y| true => Value::Int(x.wrapping_sub(y)),
                        float |p, q| p - q),
                    Op::MulK { a, b, k } => op_arith_num!(a, b, k!(k), None, ArithOp::Mul,
                        int |x, y| true => Value::Int(x.wrapping_mul(y)),
                        float |p, q| p * q),
                    Op::DivK { a, b, k } => op_arith_num!(a, b, k!(k), None, ArithOp::Div,
                        int |x, y| true => Value::Float(x as f64 / y as f64),
                        float |p, q| p / q),
                    Op::ModK { a, b, k } => op_arith_num!(a, b, k!(k), None, ArithOp::Mod,
                        int |x, y| y != 0 => Value::Int(int_mod(x, y)),
                        float |p, q| float_mod(p, q)),
                    Op::IDivK { a, b, k } => op_arith_num!(a, b, k!(k), None, ArithOp::IDiv,
                        int |x, y| y != 0 => Value::Int(int_idiv(x, y)),
                        float |p, q| (p / q).floor()),
                    Op::ArithKR { op, a, k, c } => op_arith!(a, op, k!(k), r!(c), None, Some(c)),
                    // `sub`: written `x - k`, so an error names subtraction; the fast path adds `i` either way.
                    Op::AddI { a, b, i, sub } => match r!(b) {
                        Value::Int(v) => r!(a) = Value::Int(v.wrapping_add(i as i64)),
                        Value::Float(f) => r!(a) = Value::Float(f + i as f64),
                        x => {
                            let op = if sub { ArithOp::Sub } else { ArithOp::Add };
                            let y = Value::Int(if sub { -(i as i64) } else { i as i64 });
                            save!();
                            r!(a) = tri!(self.arith_slow(op, x, y, Some(b), None))
                        }
                    },
                    Op::Unm { a, b } => {
                        let x = r!(b);
                        r!(a) = match x {
                            Value::Int(i) => Value::Int(i.wrapping_neg()),
                            Value::Float(f) => Value::Float(-f),
                            _ => {
                                save!();
                                match to_number(&self.heap, x) {
                                    Some(Value::Int(i)) => Value::Int(i.wrapping_neg()),
                                    Some(Value::Float(f)) => Value::Float(-f),
                                    _ => {
                                        let vi = self.varinfo(b);
                                        if let Value::Str(_) = x {
                                            fail!(Throw::msg(
                                                "attempt to unm a 'string' with a 'string'"
                                            ))
                                        }
                                        fail!(Throw::msg(format!(
                                            "attempt to perform arithmetic on a {} value{}",
                                            x.type_name(),
                                            vi
                                        )))
                                    }
                                }
                            }
                        };
                    }
                    Op::Not { a, b } => r!(a) = Value::Bool(!r!(b).truthy()),
                    Op::Len { a, b } => {
                        let x = r!(b);
                        r!(a) = match x {
                            Value::Table(t) => Value::Int(self.heap.table_len(t)),
                            Value::Str(s) => Value::Int(self.heap.str_bytes(s).len() as i64),
                            _ => {
                                save!();
                                fail!(Throw::msg(format!(
                                    "attempt to get length of a {} value{}",
                                    x.type_name(),
                                    self.varinfo(b)
                                )))
                            }
                        };
                    }
                    Op::BNot { a, b } => {
                        let x = r!(b);
                        save!();
                        r!(a) =
                            tri!(self.arith_slow(ArithOp::BXor, x, Value::Int(-1), Some(b), None));
                    }
                    Op::Concat { a, b, n } => {
                        save!();
                        let on = self.inline_main_loop();
                        let v = restartable(self, on).concat(base + b as usize, n as usize, b);
                        let v = tri!(v);
                        r!(a) = v;
                        self.maybe_gc();
                        settle!();
                    }
                    Op::Jmp { off } => {
                        if off < 0 {
                            charge!(-(off as i64));
                        }
                        pc = (pc as i64 + off as i64) as usize;
                    }
                    Op::Eq { a, b, k } => {
                        let res = r!(a) == r!(b);
                        cond_jump!(res, k);
                    }
                    Op::EqK { a, kc, k } => {
                        let res = r!(a) == k!(kc);
                        cond_jump!(res, k);
                    }
                    Op::Lt { a, b, k } => {
                        op_order!(r!(a), r!(b), k, <, |x, y| self.less_than(x, y))
                    }
                    Op::Le { a, b, k } => {
                        op_order!(r!(a), r!(b), k, <=, |x, y| self.less_equal(x, y))
                    }
                    Op::LtK { a, kc, k } => {
                        op_order!(r!(a), k!(kc), k, <, |x, y| self.less_than(x, y))
                    }
                    Op::LeK { a, kc, k } => {
                        op_order!(r!(a), k!(kc), k, <=, |x, y| self.less_equal(x, y))
                    }
                    Op::GtK { a, kc, k } => {
                        op_order!(r!(a), k!(kc), k, >, |x, y| self.less_than(y, x))
                    }
                    Op::GeK { a, kc, k } => {
                        op_order!(r!(a), k!(kc), k, >=, |x, y| self.less_equal(y, x))
                    }
                    Op::Test { a, k } => {
                        let res = r!(a).truthy();
                        cond_jump!(res, k);
                    }
                    Op::TestSet { a, b, k } => {
                        let v = r!(b);
                        if v.truthy() == k {
                            r!(a) = v;
                            next_jump!();
                        } else {
                            pc += 1;
                        }
                    }
                    Op::Call { a, b, c } => {
                        let (func, nargs, callee) = call_args!(a, b);
                        // Fast path of a Lua-to-Lua call (what `precall` does for a fixed-
                        // parameter closure, when the value stack and the frame vector already
                        // have room, so nothing is allocated or charged): push the frame and
                        // continue in the same loop.
                        if let Value::Closure(clo) = callee {
                            let pidx = self.heap.closure(clo).proto;
                            let p = &prog.protos[pidx as usize];
                            let nbase = func + 1;
                            if !p.is_vararg
                                && nbase + (p.max_stack as usize) < self.stack.len()
                                && self.frames.len() < self.frames.capacity()
                                && self.frames.len() < limits::MAX_FRAMES
                            {
                                let np = p.num_params as usize;
                                if nargs < np {
                                    self.stack[nbase + nargs..nbase + np].fill(Value::Nil);
                                }
                                self.frames.push(Frame {
                                    closure: clo,
                                    proto: pidx,
                                    base: nbase,
                                    pc: 0,
                                    func,
                                    nresults: c as i32 - 1,
                                    vararg_base: nbase,
                                    nvarargs: 0,
                                    kind: FrameKind::Normal,
                                    pdepth: self.frames[fi].pdepth,
                                });
                                continue 'frame;
                            }
                        }
                        if !callee.is_function() {
                            let site = CallSite::Instr {
                                reg: a,
                                nresults: c as i32 - 1,
                            };
                            not_callable!(callee, func, site);
                        }
                        call_value!(func, nargs, c as i32 - 1, a);
                    }
                    Op::TailCall { a, b } => {
                        let (func, nargs, callee) = call_args!(a, b);
                        // `string.gmatch`'s iterator is a native call in disguise (`precall`):
                        // an ordinary call, like a tail call of any native.
                        if let Value::Closure(clo) = callee
                            && self.heap.closure(clo).proto != prog.gmatch_iter
                        {
                            let ffunc = self.frames[fi].func;
                            if let Some(&(idx, _)) = self.open_upvals.last()
                                && idx > ffunc
                            {
                                self.close_upvals(ffunc + 1);
                            }
                            let cur = self.frames.pop().expect("frame");
                            self.heap.meter.fuel -= (nargs / VALUES_PER_FUEL) as i64;
                            for i in 0..=nargs {
                                self.stack[cur.func + i] = self.stack[func + i];
                            }
                            if let Err(e) = self.precall(cur.func, nargs, cur.nresults, cur.kind) {
                                // The frame is gone: the error cannot be raised again by
                                // re-running this instruction (`handle_error`).
                                self.heap.meter.dirty = true;
                                return Err(e);
                            }
                            continue 'frame;
                        }
                        if !callee.is_function() {
                            let site = CallSite::Instr {
                                reg: a,
                                nresults: MULTI,
                            };
                            not_callable!(callee, func, site);
                        }
                        // Not a Lua function: an ordinary call; the next instruction returns.
                        call_value!(func, nargs, MULTI, a);
                    }
                    Op::Return { a, b } => {
                        let first = base + a as usize;
                        let n = if b == 0 {
                            self.top - first
                        } else {
                            b as usize - 1
                        };
                        // The running frame is the top one (`fi`): read, then dropped.
                        let f = self.frames[fi];
                        if let Some(&(idx, _)) = self.open_upvals.last()
                            && idx >= f.func
                        {
                            self.close_upvals(f.func);
                        }
                        self.frames.truncate(fi);
                        // Fast path: one value to a caller that wants one (`return f(x)` results,
                        // `local y = g(x)`): the general copy below, without its loops.
                        if n == 1 && f.kind == FrameKind::Normal && f.nresults == 1 && fi > stop {
                            self.stack[f.func] = self.stack[first];
                            continue 'frame;
                        }
                        // Copying many results costs fuel too (`return table.unpack(t)` in a loop).
                        self.heap.meter.fuel -= (n / VALUES_PER_FUEL) as i64;
                        let (dest, extra) = if f.kind != FrameKind::Normal {
                            self.stack[f.func - 1] = Value::Bool(true);
                            (f.func, 1usize)
                        } else {
                            (f.func, 0)
                        };
                        for i in 0..n {
                            self.stack[dest + i] = self.stack[first + i];
                        }
                        let total = n + extra;
                        let start = dest - extra;
                        if f.nresults < 0 {
                            self.top = start + total;
                        } else {
                            let want = f.nresults as usize;
                            if start + want > self.stack.len() {
                                self.stack.resize(start + want + 1, Value::Nil);
                            }
                            for i in total..want {
                                self.stack[start + i] = Value::Nil;
                            }
                        }
                        if self.frames.len() <= stop {
                            if stop == 0 {
                                // The compiler ends the main chunk with an implicit `return`
                                // as its last instruction (`compile_chunk`).
                                self.fell_off = f.proto == 0 && pc == code.len();
                            }
                            return Ok(Exit::Returned);
                        }
                        continue 'frame;
                    }
                    Op::ForPrep { a, jmp } => {
                        save!();
                        let run = tri!(self.for_prep(base + a as usize));
                        if !run {
                            pc += jmp as usize;
                        }
                    }
                    Op::ForLoop { a, jmp } => {
                        charge!(jmp);
                        let ra = base + a as usize;
                        match self.stack[ra + 2] {
                            Value::Int(step) => {
                                let Value::Int(count) = self.stack[ra + 1] else {
                                    unreachable_const()
                                };
                                if count > 0 {
                                    self.stack[ra + 1] = Value::Int(count - 1);
                                    let Value::Int(i) = self.stack[ra] else {
                                        unreachable_const()
                                    };
                                    let ni = i.wrapping_add(step);
                                    self.stack[ra] = Value::Int(ni);
                                    self.stack[ra + 3] = Value::Int(ni);
                                    pc -= jmp as usize;
                                }
                            }
                            Value::Float(step) => {
                                let (Value::Float(i), Value::Float(lim)) =
                                    (self.stack[ra], self.stack[ra + 1])
                                else {
                                    unreachable_const()
                                };
                                let ni = i + step;
                                let cont = if step > 0.0 { ni <= lim } else { lim <= ni };
                                if cont {
                                    self.stack[ra] = Value::Float(ni);
                                    self.stack[ra + 3] = Value::Float(ni);
                                    pc -= jmp as usize;
                                }
                            }
                            _ => unreachable_const(),
                        }
                    }
                    Op::TForCall { a, c } => {
                        let ra = base + a as usize;
                        let f = self.stack[ra];
                        // Fast path: next(t, k)
                        if let (Value::Native(n), Value::Table(t)) = (f, self.stack[ra + 1])
                            && Some(n) == self.next_ref
                        {
                            let key = self.stack[ra + 2];
                            let (found, skipped) = tri!(self.heap.table_next_counted(t, key));
                            // Empty slots scanned are work too (charged at the loop's
                            // TForLoop, the next charge point).
                            self.heap.meter.fuel -= (skipped / 16) as i64;
                            match found {
                                Some((k, v)) => {
                                    self.stack[ra + 3] = k;
                                    if c >= 2 {
                                        self.stack[ra + 4] = v;
                                    }
                                    for i in 2..c as usize {
                                        self.stack[ra + 3 + i] = Value::Nil;
                                    }
                                }
                                None => {
                                    for i in 0..c as usize {
                                        self.stack[ra + 3 + i] = Value::Nil;
                                    }
                                }
                            }
                            continue;
                        }
                        self.stack[ra + 3] = f;
                        self.stack[ra + 4] = self.stack[ra + 1];
                        self.stack[ra + 5] = self.stack[ra + 2];
                        save!();
                        if !f.is_function() {
                            not_callable!(f, ra + 3, CallSite::ForIterator);
                        }
                        match tri!(self.precall(ra + 3, 2, c as i32, FrameKind::Normal)) {
                            CallRes::Lua => continue 'frame,
                            CallRes::Done => {}
                            CallRes::Host(call) => return Ok(Exit::Host(call)),
                        }
                    }
                    Op::TForLoop { a, jmp } => {
                        charge!(jmp + 1);
                        let ra = base + a as usize;
                        let v = self.stack[ra + 3];
                        if !v.is_nil() {
                            self.stack[ra + 2] = v;
                            pc -= jmp as usize;
                        }
                    }
                    Op::Closure { a, p } => {
                        save!();
                        self.maybe_gc();
                        let pidx = proto.protos[p as usize];
                        let child = &prog.protos[pidx as usize];
                        let mut ups = Vec::with_capacity(child.upvals.len());
                        for d in &child.upvals {
                            if d.in_stack {
                                ups.push(tri!(self.find_upval(base + d.idx as usize)));
                            } else {
                                ups.push(self.heap.closure(cl).upvals[d.idx as usize]);
                            }
                        }
                        let c = tri!(self.heap.new_closure(pidx, ups.into_boxed_slice()));
                        r!(a) = Value::Closure(c);
                        settle!();
                    }
                    Op::Vararg { a, c } => {
                        let f = self.frames[fi];
                        let n = f.nvarargs;
                        let dst = base + a as usize;
                        if c == 0 {
                            self.heap.meter.fuel -= (n / VALUES_PER_FUEL) as i64;
                            tri!(self.ensure_stack(dst + n + 1));
                            for i in 0..n {
                                self.stack[dst + i] = self.stack[f.vararg_base + i];
                            }
                            self.top = dst + n;
                        } else {
                            let want = c as usize - 1;
                            for i in 0..want {
                                self.stack[dst + i] = if i < n {
                                    self.stack[f.vararg_base + i]
                                } else {
                                    Value::Nil
                                };
                            }
                        }
                        settle!();
                    }
                    Op::Close { a } => {
                        self.close_upvals(base + a as usize);
                    }
                }
            }
        }
    }

    pub(super) fn for_prep(&mut self, ra: usize) -> VmResult<bool> {
        let (init, limit, step) = (self.stack[ra], self.stack[ra + 1], self.stack[ra + 2]);
        // Strings are converted like Lua's tonumber (a string never makes an integer loop).
        let conv = |v: Value| match v {
            Value::Str(_) => to_number(&self.heap, v).unwrap_or(v),
            v => v,
        };
        let limit = conv(limit);
        if let (Value::Int(i), Value::Int(s)) = (init, step) {
            if s == 0 {
                return Err(Throw::msg("'for' step is zero"));
            }
            let lim = match limit {
                Value::Int(l) => l,
                Value::Float(f) => {
                    let fl = if s < 0 { f.ceil() } else { f.floor() };
                    match float_to_int_exact(fl) {
                        Some(l) => l,
                        None => {
                            if f.is_nan() {
                                return Ok(false);
                            }
                            if f > 0.0 {
                                if s < 0 {
                                    return Ok(false);
                                }
                                i64::MAX
                            } else {
                                if s > 0 {
                                    return Ok(false);
                                }
                                i64::MIN
                            }
                        }
                    }
                }
                other => return Err(for_error("limit", other)),
            };
            if if s > 0 { i > lim } else { i < lim } {
                return Ok(false);
            }
            let count: u64 = if s > 0 {
                (lim as u64).wrapping_sub(i as u64) / (s as u64)
            } else {
                let d = (i as u64).wrapping_sub(lim as u64);
                d / ((-(s + 1)) as u64 + 1)
            };
            // Store the iteration count (as i64 bits; counts fit because they are <= 2^64-1 and
            // we compare > 0 after reinterpretation only when < 2^63).
            self.stack[ra + 1] = Value::Int(count.min(i64::MAX as u64) as i64);
            self.stack[ra + 3] = Value::Int(i);
            return Ok(true);
        }
        let (init, step) = (conv(init), conv(step));
        let fi = match init {
            Value::Int(i) => i as f64,
            Value::Float(f) => f,
            other => return Err(for_error("initial value", other)),
        };
        let fl = match limit {
            Value::Int(i) => i as f64,
            Value::Float(f) => f,
            other => return Err(for_error("limit", other)),
        };
        let fs = match step {
            Value::Int(i) => i as f64,
            Value::Float(f) => f,
            other => return Err(for_error("step", other)),
        };
        if fs == 0.0 {
            return Err(Throw::msg("'for' step is zero"));
        }
        if if fs > 0.0 { fl < fi } else { fi < fl } || fl.is_nan() || fi.is_nan() {
            return Ok(false);
        }
        self.stack[ra] = Value::Float(fi);
        self.stack[ra + 1] = Value::Float(fl);
        self.stack[ra + 2] = Value::Float(fs);
        self.stack[ra + 3] = Value::Float(fi);
        Ok(true)
    }
}

fn for_error(what: &str, v: Value) -> Throw {
    Throw::msg(format!(
        "bad 'for' {} (number expected, got {})",
        what,
        v.type_name()
    ))
}

#[cold]
fn unreachable_const() -> ! {
    panic!("internal error: malformed bytecode")
}
