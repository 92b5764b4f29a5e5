// Timelines from Python: the recorder of runtime/base/trace.h, driven by
// `ember.runtime.tracing` (the `trace` context manager and EMBER_TRACE).
// Writing a trace can take a while for big sessions, so the GIL is released
// around it; starting and stopping are a few atomic stores.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <string>

#include "python/bindings/status_utils.h"
#include "runtime/base/trace.h"

namespace nb = nanobind;

namespace ember::python {

void BindTrace(nb::module_& m) {
  m.def(
      "trace_start", [] { trace::Start(); },
      "Starts a new trace session (the previous session's events are "
      "discarded).");
  m.def("trace_stop", &trace::Stop,
        "Stops recording; the session's events stay until the next start.");
  m.def("trace_enabled", &trace::Enabled,
        "Whether a trace session is recording.");
  m.def("trace_dropped_events", &trace::DroppedEvents,
        "Events the current session dropped because it held the maximum.");
  m.def(
      "trace_json",
      []() {
        std::string json;
        {
          nb::gil_scoped_release release;
          json = trace::ChromeJson();
        }
        return json;
      },
      "The current session as Chrome trace JSON (a str).");
  m.def(
      "trace_write",
      [](const std::string& path) {
        Status status = Status::Ok();
        {
          nb::gil_scoped_release release;
          status = trace::WriteChromeJson(path);
        }
        if (!status.ok()) ThrowStatus(status);
      },
      nb::arg("path"),
      "Writes the current session as Chrome trace JSON to `path`.");
}

}  // namespace ember::python
