// Built-in timelines: a process-wide recorder of complete slices (begin,
// end, name, a few arguments) written as Chrome trace JSON, which Perfetto
// and chrome://tracing open. Upstream IREE needs a separate Tracy build for
// this; Ember ships it in every build, off by default.
//
// Cost when off. Every instrumentation point starts with `Enabled()`, one
// relaxed load of a process-wide atomic and a predictable branch: no clock
// read, no thread-local access, no allocation. `BeginNs()` folds that check
// into the slice's start time (0 = not recording), so a call site is
//
//   const uint64_t trace_begin = trace::BeginNs();
//   ... the work ...
//   if (trace_begin != 0) trace::Complete(Category::kQueue, "execute",
//                                         trace_begin, {...});
//
// Cost when on. Each thread appends to its own buffer of fixed-size events
// in chunks of kChunkEvents, without locks; a per-buffer mutex is taken only
// to add a chunk (and by the writer), so workers never contend. Names and
// text arguments are interned (a per-thread cache in front of a global
// table), so an event holds ids, not strings. A session keeps at most
// kMaxEvents events (rounded to chunks); later events are dropped and
// counted, and the count is written in the JSON, so a long run cannot eat
// memory.
//
// Sessions. Start() begins a new session (discarding the previous one's
// events); Stop() ends recording; the events stay until the next Start and
// can be written any number of times. A thread finds out that a new session
// started on its next event (its buffer's generation is stale) and resets
// its own buffer, so Start never touches another thread's buffer in use.
// Slices that began before Start or end after Stop are dropped.
//
// Environment: EMBER_TRACE=/path/out.json (or out.%p.json: the process id)
// makes StartFromEnvironment() (the
// tools call it first thing, the Python package on import) start a session,
// and WriteToEnvironmentPath() (end of a tool's main, Python atexit) write it.
//
// Thread safety: every function is thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "runtime/base/status.h"

namespace ember::trace {

// What a slice is; written as the event's "cat".
enum class Category : uint8_t {
  kInvoke,      // a host call of an exported function
  kFrame,       // a bytecode function's frame
  kNative,      // a call into a native module (hal.*)
  kQueue,       // a HAL queue operation (alloca, execute, ...)
  kDispatch,    // a dispatch (one slice per dispatch, on the caller)
  kWorkgroups,  // one worker's share of a dispatch's workgroups
  kWait,        // the calling thread blocked on a fence or semaphore
};

// One argument of a slice: a number or a text.
struct Arg {
  std::string_view key;
  std::string_view text;
  int64_t number = 0;
  bool is_text = false;
  static Arg Int(std::string_view key, int64_t value) {
    return Arg{key, {}, value, false};
  }
  static Arg Text(std::string_view key, std::string_view value) {
    return Arg{key, value, 0, true};
  }
};

constexpr size_t kMaxArgs = 6;
constexpr size_t kChunkEvents = 4096;
constexpr size_t kMaxEvents = size_t{1} << 21;  // ~2M events, ~250 MB

namespace internal {
inline std::atomic<bool> enabled{false};
}  // namespace internal

// Whether a session is recording.
[[gnu::always_inline]] inline bool Enabled() {
  return internal::enabled.load(std::memory_order_relaxed);
}

// A steady clock in nanoseconds (never 0).
uint64_t NowNs();

// The start of a slice: NowNs() when recording, 0 when not.
[[gnu::always_inline]] inline uint64_t BeginNs() {
  return Enabled() ? NowNs() : 0;
}

// Records a slice from `begin_ns` (from BeginNs, non-zero) to now. Dropped
// when the session stopped, or began after `begin_ns`. At most kMaxArgs
// arguments are kept.
void Complete(Category category, std::string_view name, uint64_t begin_ns,
              std::initializer_list<Arg> args = {});
// The same with the name `prefix` + "." + `name` (built only when recording).
void CompleteQualified(Category category, std::string_view prefix,
                       std::string_view name, uint64_t begin_ns,
                       std::initializer_list<Arg> args = {});

// Names the calling thread in traces ("worker 3", "queue"); cheap, and may be
// called whether or not a session is recording. Unnamed threads are
// "caller".
void SetThreadName(std::string_view name);

// Starts a new session (the previous one's events are discarded) that keeps
// at most `max_events` events (rounded up to whole chunks).
void Start(size_t max_events = kMaxEvents);
// Stops recording; the events are kept for writing.
void Stop();

// The recorded session as Chrome trace JSON ({"traceEvents": [...]}).
std::string ChromeJson();
Status WriteChromeJson(const std::string& path);

// Events dropped by the cap in the current session.
uint64_t DroppedEvents();

// `pattern` with each "%p" replaced by this process's id, so that processes
// sharing an EMBER_TRACE (a tool and the children it starts) write
// separate files.
std::string ExpandTracePath(std::string_view pattern);

// If EMBER_TRACE names a file ("%p" expanded), starts a session (once per
// process) and returns true.
bool StartFromEnvironment();
// If EMBER_TRACE named a file, stops and writes the session there.
Status WriteToEnvironmentPath();

}  // namespace ember::trace
