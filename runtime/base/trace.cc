#include "runtime/base/trace.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#if defined(__linux__)
#include <sys/syscall.h>
#endif

namespace ember::trace {
namespace {

struct StoredArg {
  uint32_t key = 0;
  uint32_t text = 0;  // interned id + 1 for a text argument, 0 for a number
  int64_t number = 0;
};

struct Event {
  uint64_t begin_ns = 0;
  uint64_t end_ns = 0;
  uint32_t name = 0;
  Category category = Category::kInvoke;
  uint8_t arg_count = 0;
  StoredArg args[kMaxArgs];
};

struct Chunk {
  Event events[kChunkEvents];
};

// One thread's events. The owner thread appends; `mutex` guards `chunks`
// (taken by the owner only when adding a chunk or resetting) and `name`;
// `count` (events in the last chunk) is published with release so the
// writer sees complete events.
struct ThreadBuffer {
  std::mutex mutex;
  std::vector<std::unique_ptr<Chunk>> chunks;
  std::atomic<size_t> count{0};  // events in chunks.back()
  uint64_t generation = 0;       // the session `chunks` belong to
  int64_t tid = 0;
  std::string name = "caller";
  bool exited = false;  // the thread is gone; freed by the next Start
};

struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view text) const {
    return std::hash<std::string_view>()(text);
  }
};
using InternMap =
    std::unordered_map<std::string, uint32_t, StringHash, std::equal_to<>>;

// Leaked on purpose: threads and atexit handlers may record after static
// destructors have run.
struct Recorder {
  std::mutex mutex;  // guards everything below but the atomics
  std::vector<std::shared_ptr<ThreadBuffer>> buffers;
  std::deque<std::string> strings;  // by id; never moves an element
  InternMap ids;
  std::atomic<uint64_t> generation{0};
  std::atomic<uint64_t> session_start_ns{0};
  std::atomic<size_t> chunks_left{0};
  std::atomic<uint64_t> dropped{0};
  std::string environment_path;
  bool environment_started = false;
};

Recorder& recorder() {
  static Recorder* instance = new Recorder();
  return *instance;
}

int64_t CurrentTid() {
#if defined(__linux__)
  return static_cast<int64_t>(syscall(SYS_gettid));
#else
  static std::atomic<int64_t> next{1};
  return next.fetch_add(1);
#endif
}

// The calling thread's buffer and intern cache, registered on first use.
struct ThreadState {
  std::shared_ptr<ThreadBuffer> buffer;
  InternMap cache;
  std::string scratch;
  ~ThreadState() {
    if (!buffer) return;
    std::lock_guard lock(buffer->mutex);
    buffer->exited = true;
  }
};

ThreadState& thread_state() {
  thread_local ThreadState state;
  if (!state.buffer) {
    auto buffer = std::make_shared<ThreadBuffer>();
    buffer->tid = CurrentTid();
    Recorder& r = recorder();
    std::lock_guard lock(r.mutex);
    r.buffers.push_back(buffer);
    state.buffer = std::move(buffer);
  }
  return state;
}

uint32_t Intern(ThreadState& state, std::string_view text) {
  auto it = state.cache.find(text);
  if (it != state.cache.end()) return it->second;
  Recorder& r = recorder();
  uint32_t id;
  {
    std::lock_guard lock(r.mutex);
    auto global = r.ids.find(text);
    if (global != r.ids.end()) {
      id = global->second;
    } else {
      id = static_cast<uint32_t>(r.strings.size());
      r.strings.emplace_back(text);
      r.ids.emplace(std::string(text), id);
    }
  }
  // The cache is bounded so hostile programs with endless distinct names
  // cannot grow it without limit (the global table is bounded by the cap).
  if (state.cache.size() > 65536) state.cache.clear();
  state.cache.emplace(std::string(text), id);
  return id;
}

// A slot for one event in the calling thread's buffer, or null when the
// cap is reached.
Event* Reserve(ThreadState& state, uint64_t generation) {
  ThreadBuffer& buffer = *state.buffer;
  Recorder& r = recorder();
  if (buffer.generation != generation) {
    // Each session has its own string table: ids cached for an older one
    // are stale.
    state.cache.clear();
    std::lock_guard lock(buffer.mutex);
    buffer.chunks.clear();
    buffer.count.store(0, std::memory_order_relaxed);
    buffer.generation = generation;
  }
  size_t count = buffer.count.load(std::memory_order_relaxed);
  if (buffer.chunks.empty() || count == kChunkEvents) {
    // Take a chunk from the session's allowance.
    size_t left = r.chunks_left.load(std::memory_order_relaxed);
    do {
      if (left == 0) {
        r.dropped.fetch_add(1, std::memory_order_relaxed);
        return nullptr;
      }
    } while (!r.chunks_left.compare_exchange_weak(left, left - 1,
                                                  std::memory_order_relaxed));
    std::lock_guard lock(buffer.mutex);
    buffer.chunks.push_back(std::make_unique<Chunk>());
    buffer.count.store(0, std::memory_order_release);
    count = 0;
  }
  return &buffer.chunks.back()->events[count];
}

void Record(Category category, std::string_view name, uint64_t begin_ns,
            std::initializer_list<Arg> args) {
  if (!Enabled() || begin_ns == 0) return;
  const uint64_t end_ns = NowNs();
  Recorder& r = recorder();
  if (begin_ns < r.session_start_ns.load(std::memory_order_relaxed)) return;
  ThreadState& state = thread_state();
  const uint64_t generation = r.generation.load(std::memory_order_acquire);
  Event* event = Reserve(state, generation);
  if (event == nullptr) return;
  event->begin_ns = begin_ns;
  event->end_ns = end_ns;
  event->category = category;
  event->name = Intern(state, name);
  uint8_t count = 0;
  for (const Arg& arg : args) {
    if (count == kMaxArgs) break;
    StoredArg& stored = event->args[count++];
    stored.key = Intern(state, arg.key);
    stored.text = arg.is_text ? Intern(state, arg.text) + 1 : 0;
    stored.number = arg.number;
  }
  event->arg_count = count;
  ThreadBuffer& buffer = *state.buffer;
  buffer.count.store(buffer.count.load(std::memory_order_relaxed) + 1,
                     std::memory_order_release);
}

const char* CategoryName(Category category) {
  switch (category) {
    case Category::kInvoke: return "invoke";
    case Category::kFrame: return "frame";
    case Category::kNative: return "native";
    case Category::kQueue: return "queue";
    case Category::kDispatch: return "dispatch";
    case Category::kWorkgroups: return "workgroups";
    case Category::kWait: return "wait";
  }
  return "other";
}

// Appends `text` as a JSON string: quotes, backslashes and control bytes
// escaped, invalid UTF-8 (names come from untrusted files) replaced by
// U+FFFD so the output is always valid JSON.
void AppendJsonString(std::string& out, std::string_view text) {
  out += '"';
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const size_t size = text.size();
  for (size_t i = 0; i < size;) {
    const unsigned char c = bytes[i];
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
      ++i;
    } else if (c < 0x20) {
      char escape[8];
      std::snprintf(escape, sizeof(escape), "\\u%04x", c);
      out += escape;
      ++i;
    } else if (c < 0x80) {
      out += static_cast<char>(c);
      ++i;
    } else {
      // A well-formed multi-byte sequence (no overlongs, no surrogates, at
      // most U+10FFFF) is copied; anything else is one U+FFFD per byte.
      size_t length = 0;
      uint32_t min = 0;
      uint32_t code = 0;
      if ((c & 0xE0) == 0xC0) {
        length = 2, min = 0x80, code = c & 0x1F;
      } else if ((c & 0xF0) == 0xE0) {
        length = 3, min = 0x800, code = c & 0x0F;
      } else if ((c & 0xF8) == 0xF0) {
        length = 4, min = 0x10000, code = c & 0x07;
      }
      bool valid = length != 0 && i + length <= size;
      for (size_t k = 1; valid && k < length; ++k) {
        if ((bytes[i + k] & 0xC0) != 0x80) valid = false;
        code = (code << 6) | (bytes[i + k] & 0x3F);
      }
      valid = valid && code >= min && code <= 0x10FFFF &&
              !(code >= 0xD800 && code <= 0xDFFF);
      if (valid) {
        out.append(text.data() + i, length);
        i += length;
      } else {
        out += "\xEF\xBF\xBD";
        ++i;
      }
    }
  }
  out += '"';
}

// An interned string by id; ids always come from the session being written,
// the bound check is a second line of defence.
std::string_view StringOf(const Recorder& r, uint32_t id) {
  return id < r.strings.size() ? std::string_view(r.strings[id]) : "?";
}

void AppendMicroseconds(std::string& out, uint64_t ns) {
  char text[32];
  std::snprintf(text, sizeof(text), "%" PRIu64 ".%03" PRIu64, ns / 1000,
                ns % 1000);
  out += text;
}

}  // namespace

uint64_t NowNs() {
  const auto now = std::chrono::steady_clock::now().time_since_epoch();
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(now);
  return static_cast<uint64_t>(ns.count()) | 1;  // never 0
}

void Complete(Category category, std::string_view name, uint64_t begin_ns,
              std::initializer_list<Arg> args) {
  Record(category, name, begin_ns, args);
}

void CompleteQualified(Category category, std::string_view prefix,
                       std::string_view name, uint64_t begin_ns,
                       std::initializer_list<Arg> args) {
  if (!Enabled() || begin_ns == 0) return;
  std::string& scratch = thread_state().scratch;
  scratch.assign(prefix);
  scratch += '.';
  scratch += name;
  Record(category, scratch, begin_ns, args);
}

void SetThreadName(std::string_view name) {
  ThreadState& state = thread_state();
  std::lock_guard lock(state.buffer->mutex);
  state.buffer->name.assign(name);
}

void Start(size_t max_events) {
  Recorder& r = recorder();
  std::lock_guard lock(r.mutex);
  internal::enabled.store(false, std::memory_order_relaxed);
  // Buffers of threads that exited hold only old sessions' events.
  std::erase_if(r.buffers, [](const std::shared_ptr<ThreadBuffer>& buffer) {
    std::lock_guard buffer_lock(buffer->mutex);
    return buffer->exited;
  });
  // Strings of the previous session go with its events, so names do not
  // pile up over sessions (threads drop their caches on the generation
  // change below).
  r.strings.clear();
  r.ids.clear();
  r.chunks_left.store((max_events + kChunkEvents - 1) / kChunkEvents,
                      std::memory_order_relaxed);
  r.dropped.store(0, std::memory_order_relaxed);
  r.session_start_ns.store(NowNs(), std::memory_order_relaxed);
  r.generation.fetch_add(1, std::memory_order_release);
  internal::enabled.store(true, std::memory_order_release);
}

void Stop() { internal::enabled.store(false, std::memory_order_release); }

uint64_t DroppedEvents() {
  return recorder().dropped.load(std::memory_order_relaxed);
}

std::string ChromeJson() {
  Recorder& r = recorder();
  std::lock_guard lock(r.mutex);
  const uint64_t generation = r.generation.load(std::memory_order_acquire);
  const uint64_t origin = r.session_start_ns.load(std::memory_order_relaxed);
  const long pid = static_cast<long>(getpid());
  std::string out = "{\"traceEvents\":[\n";
  char line[96];
  std::snprintf(line, sizeof(line),
                "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%ld,\"tid\":0,"
                "\"args\":{\"name\":\"ember\"}}",
                pid);
  out += line;
  for (const std::shared_ptr<ThreadBuffer>& buffer : r.buffers) {
    std::lock_guard buffer_lock(buffer->mutex);
    if (buffer->generation != generation || buffer->chunks.empty()) continue;
    const size_t last = buffer->count.load(std::memory_order_acquire);
    std::snprintf(line, sizeof(line),
                  ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%ld,"
                  "\"tid\":%lld,\"args\":{\"name\":",
                  pid, static_cast<long long>(buffer->tid));
    out += line;
    AppendJsonString(out, buffer->name);
    out += "}}";
    for (size_t c = 0; c < buffer->chunks.size(); ++c) {
      const size_t count = c + 1 == buffer->chunks.size() ? last : kChunkEvents;
      for (size_t e = 0; e < count; ++e) {
        const Event& event = buffer->chunks[c]->events[e];
        out += ",\n{\"ph\":\"X\",\"cat\":\"";
        out += CategoryName(event.category);
        out += "\",\"name\":";
        AppendJsonString(out, StringOf(r, event.name));
        std::snprintf(line, sizeof(line),
                      ",\"pid\":%ld,\"tid\":%lld,\"ts\":", pid,
                      static_cast<long long>(buffer->tid));
        out += line;
        AppendMicroseconds(out, event.begin_ns - origin);
        out += ",\"dur\":";
        AppendMicroseconds(out, event.end_ns - event.begin_ns);
        if (event.arg_count != 0) {
          out += ",\"args\":{";
          for (size_t a = 0; a < event.arg_count; ++a) {
            const StoredArg& arg = event.args[a];
            if (a != 0) out += ',';
            AppendJsonString(out, StringOf(r, arg.key));
            out += ':';
            if (arg.text != 0) {
              AppendJsonString(out, StringOf(r, arg.text - 1));
            } else {
              out += std::to_string(arg.number);
            }
          }
          out += '}';
        }
        out += '}';
      }
    }
  }
  out +=
      "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"producer\":\"ember\","
      "\"dropped_events\":";
  out += std::to_string(r.dropped.load(std::memory_order_relaxed));
  out += "}}\n";
  return out;
}

Status WriteChromeJson(const std::string& path) {
  const std::string json = ChromeJson();
  // Written beside the target and renamed over it: a reader (or another
  // process writing the same path, e.g. a child that inherited EMBER_TRACE)
  // sees a whole trace, never a torn or interleaved one.
  const std::string temporary =
      path + ".tmp." + std::to_string(static_cast<long long>(::getpid()));
  std::FILE* file = std::fopen(temporary.c_str(), "wb");
  if (file == nullptr) {
    return UnavailableError("cannot open trace output '" + path + "'");
  }
  const size_t written = std::fwrite(json.data(), 1, json.size(), file);
  const bool closed = std::fclose(file) == 0;
  if (written != json.size() || !closed ||
      std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    return UnavailableError("cannot write trace output '" + path + "'");
  }
  return Status::Ok();
}

std::string ExpandTracePath(std::string_view pattern) {
  std::string path;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '%' && i + 1 < pattern.size() && pattern[i + 1] == 'p') {
      path += std::to_string(static_cast<long long>(::getpid()));
      ++i;
    } else {
      path += pattern[i];
    }
  }
  return path;
}

bool StartFromEnvironment() {
  Recorder& r = recorder();
  {
    std::lock_guard lock(r.mutex);
    if (r.environment_started) return true;
    const char* path = std::getenv("EMBER_TRACE");
    if (path == nullptr || *path == '\0') return false;
    r.environment_path = ExpandTracePath(path);
    r.environment_started = true;
  }
  Start();
  return true;
}

Status WriteToEnvironmentPath() {
  std::string path;
  {
    Recorder& r = recorder();
    std::lock_guard lock(r.mutex);
    if (!r.environment_started) return Status::Ok();
    path = r.environment_path;
  }
  Stop();
  return WriteChromeJson(path);
}

}  // namespace ember::trace
