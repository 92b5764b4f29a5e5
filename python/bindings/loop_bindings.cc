// HalDeviceLoopBridge: semaphore timepoints as asyncio futures, as
// iree.runtime 3.11 offers it (`bridge.on_semaphore(sem, value, result)`
// returns a future of the loop that resolves to `result` once `sem`
// reaches `value`, fails with RuntimeError if the semaphore fails, and is
// cancelled by `stop()` while pending). Built on LoopWaiter
// (loop_waiter.h), one waiter thread per bridge as upstream has, but
// sleeping on the semaphore epoch instead of a control semaphore.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <memory>
#include <string>
#include <utility>

#include "python/bindings/hal_bindings.h"
#include "python/bindings/loop_waiter.h"
#include "python/bindings/status_utils.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace ember::python {

// Schedules the completion of `future` on its loop: its result `value`, an
// exception for a failure, or cancellation. With the GIL held, on any
// thread. A loop that is closed gets nothing (the future is abandoned with
// it); a future already done (cancelled by its owner) is left alone.
void ResolveFutureSoon(const nb::object& loop, const nb::object& future,
                       const nb::object& value, const Status& status) {
  try {
    nb::object callback;
    if (status.ok()) {
      callback = nb::cpp_function([future, value] {
        if (!nb::cast<bool>(future.attr("done")())) {
          future.attr("set_result")(value);
        }
      });
    } else if (status.code() == StatusCode::kCancelled) {
      callback = nb::cpp_function([future] { future.attr("cancel")(); });
    } else {
      std::string message = status.ToString();
      callback = nb::cpp_function([future, message] {
        if (!nb::cast<bool>(future.attr("done")())) {
          nb::object error = nb::handle(PyExc_RuntimeError)(message);
          future.attr("set_exception")(error);
        }
      });
    }
    loop.attr("call_soon_threadsafe")(callback);
  } catch (nb::python_error& error) {
    // A closed loop (RuntimeError) or a broken future: nothing to tell.
    error.discard_as_unraisable("resolving an asyncio future");
  }
}

namespace {

struct HalDeviceLoopBridge {
  nb::object device;
  nb::object loop;
  std::unique_ptr<LoopWaiter> waiter = std::make_unique<LoopWaiter>();

  ~HalDeviceLoopBridge() {
    if (waiter && !waiter->stopped()) {
      try {
        nb::module_::import_("warnings")
            .attr("warn")(
                "HalDeviceLoopBridge deleted while running. Recommend "
                "explicitly calling stop() to avoid hanging the gc");
      } catch (nb::python_error& error) {
        error.discard_as_unraisable("HalDeviceLoopBridge.__del__");
      }
      waiter->Stop();
    }
  }
};

nb::object OnSemaphore(HalDeviceLoopBridge& self, const HalSemaphore& semaphore,
                       uint64_t payload, nb::object value) {
  if (!semaphore.semaphore) {
    throw nb::value_error("on_semaphore: the semaphore is null");
  }
  nb::object future = self.loop.attr("create_future")();
  Ref<h::Semaphore> watched = semaphore.semaphore;
  nb::object loop = self.loop;
  self.waiter->Add(watched, payload,
                   [loop, future, value](const Status& status) {
                     ResolveFutureSoon(loop, future, value, status);
                   });
  return future;
}

}  // namespace

void BindLoop(nb::module_& m) {
  nb::class_<HalDeviceLoopBridge>(
      m, "HalDeviceLoopBridge",
      "Bridges device semaphore signalling to asyncio futures: "
      "on_semaphore(semaphore, payload, value) returns a future of `loop` "
      "that resolves to `value` once the semaphore reaches `payload` "
      "(RuntimeError if it fails). One native thread per bridge waits for "
      "every requested timepoint without the GIL; stop() ends it and "
      "cancels the futures still pending.")
      .def(
          "__init__",
          [](HalDeviceLoopBridge* self, nb::handle device, nb::object loop) {
            HalDevice* hal_device = nullptr;
            if (!nb::try_cast<HalDevice*>(device, hal_device) || !hal_device) {
              throw nb::type_error(
                  "HalDeviceLoopBridge: device must be a HalDevice");
            }
            new (self) HalDeviceLoopBridge();
            self->device = nb::borrow(device);
            self->loop = std::move(loop);
          },
          "device"_a, "loop"_a)
      .def(
          "stop", [](HalDeviceLoopBridge& self) { self.waiter->Stop(); },
          "Stops the bridge's thread; pending futures are cancelled.")
      .def("on_semaphore", &OnSemaphore, "semaphore"_a, "payload"_a, "value"_a,
           "A future of the loop that resolves to `value` once `semaphore` "
           "reaches `payload`.");
}

}  // namespace ember::python
