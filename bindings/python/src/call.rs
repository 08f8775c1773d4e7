//! Calling Python from the runtime's futures: [`call`] runs a handler (tool, hook, extension
//! function) and, when it returns a coroutine, runs that coroutine on the event loop of the
//! execution that made the call ([`EVENT_LOOP`]), awaiting it without holding the GIL.
//!
//! - A handler marked asynchronous (`async def`) is called on the runtime's thread: calling it
//!   only makes the coroutine.
//! - Any other handler runs on tokio's blocking pool, so a slow or hanging synchronous handler
//!   never stops the driver: the execution's deadline still ends the run (the thread then
//!   finishes the call by itself; Python cannot stop a running thread).
//! - A coroutine runs through `asyncio.run_coroutine_threadsafe` on the execution's loop. When
//!   the call's future is dropped before it ends (timeout, cancellation), the coroutine's task
//!   is cancelled.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pyo3::prelude::*;
use pyo3::types::PyTuple;
use tokio::sync::oneshot;

/// Longest time the interpreter's exit waits for codemode's threads to leave Python (a sync
/// handler still running after its execution timed out, a result being handed to a loop).
pub const SHUTDOWN_WAIT: Duration = Duration::from_secs(2);

/// Set at interpreter exit ([`shutdown`]): no codemode thread enters Python after it.
static SHUTTING_DOWN: AtomicBool = AtomicBool::new(false);
/// codemode's threads inside (or waiting to enter) Python right now.
static ATTACHED: AtomicUsize = AtomicUsize::new(0);

/// `Python::try_attach` for codemode's own threads (tokio's workers and blocking pool): `None`
/// once the interpreter is exiting, so no thread of ours takes the GIL while it finalizes.
pub fn attach<F, R>(f: F) -> Option<R>
where
    F: for<'py> FnOnce(Python<'py>) -> R,
{
    ATTACHED.fetch_add(1, Ordering::SeqCst);
    let r = if SHUTTING_DOWN.load(Ordering::SeqCst) {
        None
    } else {
        Python::try_attach(f)
    };
    ATTACHED.fetch_sub(1, Ordering::SeqCst);
    r
}

/// Registered with `atexit`: refuse further [`attach`]es, then wait (GIL released, at most
/// [`SHUTDOWN_WAIT`]) until the threads inside Python have left it. Without this a tokio
/// thread could still be releasing the GIL while the interpreter finalizes, which aborts the
/// process ("PyGILState_Release: thread state must be current").
#[pyfunction]
pub fn _shutdown(py: Python<'_>) {
    SHUTTING_DOWN.store(true, Ordering::SeqCst);
    py.detach(|| {
        let start = Instant::now();
        while ATTACHED.load(Ordering::SeqCst) > 0 && start.elapsed() < SHUTDOWN_WAIT {
            std::thread::sleep(Duration::from_millis(1));
        }
    });
}

tokio::task_local! {
    /// The asyncio event loop of the execution whose futures are being polled.
    pub static EVENT_LOOP: Arc<Py<PyAny>>;
}

/// Python objects the bridge needs, looked up once per runtime.
pub struct Glue {
    /// `asyncio.run_coroutine_threadsafe`.
    pub run_coroutine_threadsafe: Py<PyAny>,
    /// `types.CoroutineType`.
    pub coroutine_type: Py<PyAny>,
    /// The Python layer's `_log_exception(where: str, exc: BaseException)`: logs the traceback
    /// on the `codemode` logger.
    pub log_exception: Py<PyAny>,
    /// The Python layer's `_set_if_pending(future, value)`: resolves an asyncio future unless it
    /// was cancelled.
    pub set_if_pending: Py<PyAny>,
    /// The Python layer's `codemode.ToolError` class.
    pub tool_error: Py<PyAny>,
}

impl Glue {
    /// Log `err` with its traceback on the `codemode` logger; `context` says which handler raised.
    pub fn log(&self, py: Python<'_>, context: &str, err: &PyErr) {
        // Logging itself may fail (a broken handler on the logger): nothing else to do then.
        let _ = self.log_exception.call1(py, (context, err.value(py)));
    }
}

/// A Python callable and whether it is a coroutine function.
pub struct Callable {
    /// The function.
    pub func: Py<PyAny>,
    /// `inspect.iscoroutinefunction(func)`, as the Python layer found it.
    pub is_async: bool,
}

/// Turns a handler's outcome (its return value, or the exception it raised, or an error of the
/// bridge) into the caller's type, with the GIL held.
type Finish<T> = Box<dyn for<'py> FnOnce(Python<'py>, PyResult<Bound<'py, PyAny>>) -> T + Send>;

/// The done-callback added to the `concurrent.futures.Future` of a scheduled coroutine.
#[pyclass(frozen)]
struct Done {
    finish: Mutex<Option<Finish<()>>>,
}

#[pymethods]
impl Done {
    fn __call__(&self, py: Python<'_>, future: Bound<'_, PyAny>) {
        let finish = self.finish.lock().ok().and_then(|mut f| f.take());
        if let Some(finish) = finish {
            finish(py, future.call_method0("result"));
        }
    }
}

/// Cancels a scheduled coroutine's future when dropped before it finished.
struct CancelOnDrop(Option<Py<PyAny>>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if let Some(future) = self.0.take() {
            let _ = attach(|py| {
                let _ = future.call_method0(py, "cancel");
            });
        }
    }
}

enum Started<T> {
    Done(T),
    Pending(oneshot::Receiver<T>, CancelOnDrop),
    /// The interpreter is shutting down, or the event loop dropped the callback.
    Lost,
}

/// Call `callable(*make_args(py))` and hand its outcome to `finish` (see the module docs for
/// where it runs). `None` when the outcome was lost: the interpreter is finalizing or the
/// event loop closed before the coroutine finished.
pub async fn call<T, A>(
    glue: Arc<Glue>,
    callable: Arc<Callable>,
    make_args: A,
    finish: Finish<T>,
) -> Option<T>
where
    T: Send + 'static,
    A: for<'py> FnOnce(Python<'py>) -> PyResult<Bound<'py, PyTuple>> + Send + 'static,
{
    let event_loop = EVENT_LOOP.try_with(Arc::clone).ok();
    let is_async = callable.is_async;
    let start = move || -> Started<T> {
        attach(|py| {
            let returned = make_args(py).and_then(|args| callable.func.bind(py).call1(args));
            let coroutine = match returned {
                Ok(obj)
                    if obj
                        .is_instance(glue.coroutine_type.bind(py))
                        .unwrap_or(false) =>
                {
                    obj
                }
                other => return Started::Done(finish(py, other)),
            };
            let Some(event_loop) = event_loop else {
                let _ = coroutine.call_method0("close");
                let err = pyo3::exceptions::PyRuntimeError::new_err(
                    "no asyncio event loop to run the coroutine on",
                );
                return Started::Done(finish(py, Err(err)));
            };
            let scheduled = glue
                .run_coroutine_threadsafe
                .bind(py)
                .call1((coroutine, event_loop.bind(py)));
            let future = match scheduled {
                Ok(f) => f,
                Err(e) => return Started::Done(finish(py, Err(e))),
            };
            let (tx, rx) = oneshot::channel();
            let done = Done {
                finish: Mutex::new(Some(Box::new(move |py, r| {
                    let _ = tx.send(finish(py, r));
                }))),
            };
            let added = Py::new(py, done)
                .and_then(|d| future.call_method1("add_done_callback", (d,)).map(drop));
            if let Err(e) = added {
                glue.log(py, "codemode: add_done_callback", &e);
                let _ = future.call_method0("cancel");
                return Started::Lost;
            }
            Started::Pending(rx, CancelOnDrop(Some(future.unbind())))
        })
        .unwrap_or(Started::Lost)
    };
    let started = if is_async {
        start()
    } else {
        tokio::task::spawn_blocking(start)
            .await
            .unwrap_or(Started::Lost)
    };
    match started {
        Started::Done(t) => Some(t),
        Started::Pending(rx, mut guard) => {
            let r = rx.await.ok();
            // Finished (or lost): nothing left to cancel.
            guard.0 = None;
            r
        }
        Started::Lost => None,
    }
}
