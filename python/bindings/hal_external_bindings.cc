// Python bindings of the HAL names iree.runtime 3.12 and 3.13 have beside
// the 3.11 ones of hal_bindings.cc: external timepoints
// (ExternalTimepointType, ExternalTimepointFlags, SemaphoreCompatibility,
// HalExternalTimepoint, HalSemaphore.export_timepoint / import_timepoint),
// external captures (HalDevice.begin_external_capture /
// end_external_capture), and the Shape class that HalBuffer.create_view
// takes.
//
// They are added to the classes hal_bindings.cc made (BindHal runs first),
// and behave as iree.runtime 3.13's CPU devices (local-sync, local-task):
//  - export_timepoint of ASYNC_PRIMITIVE succeeds and fills the timepoint
//    (type ASYNC_PRIMITIVE, flags NONE, compatibility HOST_ONLY); any other
//    type is NotImplementedError. Where IREE hands out an OS wait handle,
//    Ember's timepoint holds the semaphore and the value itself: it can only
//    be imported into a semaphore of this process, which is all a CPU
//    device can do with it.
//  - import_timepoint of such a timepoint raises the importing semaphore to
//    its value once the exported one reaches its own (or fails it with the
//    same failure); any other timepoint is NotImplementedError.
//  - external captures (RenderDoc and the like) are NotImplementedError, as
//    on IREE's CPU devices.
// WAIT_PRIMITIVE, 3.11's name of ASYNC_PRIMITIVE, stays an alias so that
// 3.11 code runs.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "python/bindings/hal_bindings.h"
#include "python/bindings/status_utils.h"
#include "runtime/hal/buffer_view.h"
#include "runtime/hal/semaphore.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace ember::python {
namespace {

// The values of iree_hal_external_timepoint_type_t (and of iree.runtime's
// enum of the same name).
enum class ExternalTimepointType : uint32_t {
  kNone = 0,
  kAsyncPrimitive = 1,
  kCudaEvent = 2,
  kHipEvent = 3,
};
enum class ExternalTimepointFlags : uint32_t { kNone = 0 };
// iree_hal_semaphore_compatibility_t.
enum class SemaphoreCompatibility : uint32_t {
  kNone = 0,
  kHostWait = 1u << 0,
  kDeviceWait = 1u << 1,
  kHostSignal = 1u << 2,
  kDeviceSignal = 1u << 3,
  kHostOnly = kHostWait | kHostSignal,
  kDeviceOnly = kDeviceWait | kDeviceSignal,
  kAll = kHostOnly | kDeviceOnly,
};

struct HalExternalTimepoint {
  uint32_t type = 0;
  uint32_t flags = 0;
  uint32_t compatibility = 0;
  // The CUDA or HIP event handle; one field, as IREE's union, so that
  // either property reads it.
  uint64_t event = 0;
  // What an exported ASYNC_PRIMITIVE stands for: reached when `source`
  // reaches `source_value`.
  Ref<h::Semaphore> source;
  uint64_t source_value = 0;
};

// Python's shapes: the dims of a HalBuffer.create_view.
struct Shape {
  std::vector<int64_t> dims;
};

uint32_t AsUint32(nb::handle value, const char* what) {
  const int64_t number = nb::cast<int64_t>(nb::int_(value));
  if (number < 0 || number > 0xFFFFFFFFll) {
    throw nb::value_error(
        (std::string(what) + " must fit 32 bits unsigned").c_str());
  }
  return static_cast<uint32_t>(number);
}

// An event handle set through the property of its kind: a timepoint of type
// NONE takes the kind, one of another kind refuses it (as iree.runtime).
void SetEvent(HalExternalTimepoint& self, ExternalTimepointType kind,
              uint64_t value, const char* refusal) {
  const auto wanted = static_cast<uint32_t>(kind);
  if (self.type == static_cast<uint32_t>(ExternalTimepointType::kNone)) {
    self.type = wanted;
  } else if (self.type != wanted) {
    throw nb::value_error(refusal);
  }
  self.event = value;
}

// "local-task" for a device "local-task:0" (what IREE's messages name).
std::string DriverName(const HalDevice& device) {
  std::string id(device.device->id());
  return id.substr(0, id.find(':'));
}

}  // namespace

void BindHalExternal(nb::module_& m) {
  nb::enum_<ExternalTimepointType>(
      m, "ExternalTimepointType", nb::is_flag(), nb::is_arithmetic(),
      "The kind of an external timepoint (iree.runtime 3.13's names; "
      "WAIT_PRIMITIVE is 3.11's name of ASYNC_PRIMITIVE and stays an alias).")
      .value("NONE", ExternalTimepointType::kNone)
      .value("ASYNC_PRIMITIVE", ExternalTimepointType::kAsyncPrimitive)
      .value("CUDA_EVENT", ExternalTimepointType::kCudaEvent)
      .value("HIP_EVENT", ExternalTimepointType::kHipEvent)
      .value("WAIT_PRIMITIVE", ExternalTimepointType::kAsyncPrimitive);
  nb::enum_<ExternalTimepointFlags>(
      m, "ExternalTimepointFlags", nb::is_flag(), nb::is_arithmetic(),
      "Flags of an external timepoint (none are defined).")
      .value("NONE", ExternalTimepointFlags::kNone);
  nb::enum_<SemaphoreCompatibility>(
      m, "SemaphoreCompatibility", nb::is_flag(), nb::is_arithmetic(),
      "Who may wait for and signal a timepoint: the host, the device or "
      "both.")
      .value("NONE", SemaphoreCompatibility::kNone)
      .value("HOST_WAIT", SemaphoreCompatibility::kHostWait)
      .value("DEVICE_WAIT", SemaphoreCompatibility::kDeviceWait)
      .value("HOST_SIGNAL", SemaphoreCompatibility::kHostSignal)
      .value("DEVICE_SIGNAL", SemaphoreCompatibility::kDeviceSignal)
      .value("HOST_ONLY", SemaphoreCompatibility::kHostOnly)
      .value("DEVICE_ONLY", SemaphoreCompatibility::kDeviceOnly)
      .value("ALL", SemaphoreCompatibility::kAll);

  nb::class_<HalExternalTimepoint>(
      m, "HalExternalTimepoint",
      "A semaphore timepoint handed to or taken from outside the runtime "
      "(HalSemaphore.export_timepoint fills one, import_timepoint takes "
      "one). The fields are ints, as iree.runtime's.")
      .def(nb::init<>())
      .def_prop_rw(
          "type", [](const HalExternalTimepoint& self) { return self.type; },
          [](HalExternalTimepoint& self, nb::handle value) {
            self.type = AsUint32(value, "type");
          },
          "The ExternalTimepointType, as an int.")
      .def_prop_rw(
          "flags", [](const HalExternalTimepoint& self) { return self.flags; },
          [](HalExternalTimepoint& self, nb::handle value) {
            self.flags = AsUint32(value, "flags");
          },
          "The ExternalTimepointFlags, as an int.")
      .def_prop_rw(
          "compatibility",
          [](const HalExternalTimepoint& self) { return self.compatibility; },
          [](HalExternalTimepoint& self, nb::handle value) {
            self.compatibility = AsUint32(value, "compatibility");
          },
          "The SemaphoreCompatibility flags, as an int.")
      .def_prop_rw(
          "cuda_event",
          [](const HalExternalTimepoint& self) { return self.event; },
          [](HalExternalTimepoint& self, uint64_t value) {
            SetEvent(self, ExternalTimepointType::kCudaEvent, value,
                     "Unexpected cuda event for non cuda timepoint");
          },
          "The CUDA event handle of a CUDA_EVENT timepoint; setting it on a "
          "timepoint of type NONE makes it a CUDA_EVENT one, on another "
          "type is a ValueError.")
      .def_prop_rw(
          "hip_event",
          [](const HalExternalTimepoint& self) { return self.event; },
          [](HalExternalTimepoint& self, uint64_t value) {
            SetEvent(self, ExternalTimepointType::kHipEvent, value,
                     "Unexpected hip event for non hip timepoint");
          },
          "The HIP event handle of a HIP_EVENT timepoint; setting it on a "
          "timepoint of type NONE makes it a HIP_EVENT one, on another type "
          "is a ValueError.");

  nb::class_<Shape>(m, "Shape",
                    "The dimensions of a tensor, as HalBuffer.create_view "
                    "takes them (a list of ints does as well).")
      .def(
          "__init__",
          [](Shape* self, const std::vector<int64_t>& dims) {
            new (self) Shape{dims};
          },
          "indices"_a);

  nb::handle semaphore = nb::type<HalSemaphore>();
  nb::cpp_function_def(
      [](const HalSemaphore& self, uint64_t value,
         ExternalTimepointType requested_type, uint32_t /*requested_flags*/,
         HalExternalTimepoint& out) {
        // No flags are defined; IREE's CPU devices ignore them too.
        if (requested_type != ExternalTimepointType::kAsyncPrimitive) {
          CheckStatus(Status(StatusCode::kUnimplemented,
                             "timepoint export is not yet implemented "
                             "(Ember's CPU semaphores export ASYNC_PRIMITIVE "
                             "timepoints only)"),
                      "exporting timepoint");
        }
        if (value > h::kSemaphoreMaxValue) {
          throw nb::value_error(
              "timepoint value is above the largest "
              "semaphore value");
        }
        out = HalExternalTimepoint{};
        out.type =
            static_cast<uint32_t>(ExternalTimepointType::kAsyncPrimitive);
        out.compatibility =
            static_cast<uint32_t>(SemaphoreCompatibility::kHostOnly);
        out.source = self.semaphore;
        out.source_value = value;
      },
      nb::scope(semaphore), nb::name("export_timepoint"), nb::is_method(),
      "value"_a, "requested_type"_a, "requested_flags"_a,
      "out_external_timepoint"_a,
      "Fills `out_external_timepoint` with a timepoint reached when this "
      "semaphore reaches `value`. Only ASYNC_PRIMITIVE is exported (as by "
      "iree.runtime's CPU devices; NotImplementedError for other types); "
      "the timepoint can be imported into any semaphore of this process.");
  nb::cpp_function_def(
      [](const HalSemaphore& self, uint64_t value,
         const HalExternalTimepoint& timepoint) {
        if (timepoint.type !=
            static_cast<uint32_t>(ExternalTimepointType::kAsyncPrimitive)) {
          CheckStatus(Status(StatusCode::kUnimplemented,
                             "timepoint import is not yet implemented "
                             "(Ember's CPU semaphores import ASYNC_PRIMITIVE "
                             "timepoints only)"),
                      "importing timepoint");
        }
        if (!timepoint.source) {
          throw nb::value_error(
              "importing timepoint: the ASYNC_PRIMITIVE timepoint holds no "
              "primitive (HalSemaphore.export_timepoint makes one)");
        }
        if (value > h::kSemaphoreMaxValue) {
          throw nb::value_error(
              "timepoint value is above the largest "
              "semaphore value");
        }
        // The listener runs on whichever thread signals or fails the source
        // and must not block: raising a semaphore only wakes its waiters.
        Ref<h::Semaphore> target = self.semaphore;
        timepoint.source->NotifyAt(
            timepoint.source_value, [target, value](const Status& outcome) {
              if (outcome.ok()) {
                Status status = target->SignalAtLeast(value);
                (void)status;  // a failed target keeps its own failure
              } else {
                target->Fail(outcome);
              }
            });
      },
      nb::scope(semaphore), nb::name("import_timepoint"), nb::is_method(),
      "value"_a, "external_timepoint"_a,
      "Raises this semaphore to `value` once the exported timepoint is "
      "reached (fails it if the exporting semaphore fails). Only "
      "ASYNC_PRIMITIVE timepoints of export_timepoint are imported; "
      "NotImplementedError for other types.");

  nb::handle device = nb::type<HalDevice>();
  nb::cpp_function_def(
      [](const HalDevice& self, const std::string& /*provider*/,
         std::optional<std::string> /*file_path*/,
         std::optional<std::string> /*label*/) {
        CheckStatus(
            Status(StatusCode::kUnimplemented,
                   DriverName(self) + " external capture not implemented"),
            "starting external device capture");
      },
      nb::scope(device), nb::name("begin_external_capture"), nb::is_method(),
      "provider"_a, "file_path"_a = nb::none(), "label"_a = nb::none(),
      "Starts a capture by an external tool (RenderDoc and the like) named "
      "by `provider`: NotImplementedError on Ember's CPU devices, as on "
      "iree.runtime's.");
  nb::cpp_function_def(
      [](const HalDevice& self) {
        CheckStatus(
            Status(StatusCode::kUnimplemented,
                   DriverName(self) + " external capture not implemented"),
            "ending external device capture");
      },
      nb::scope(device), nb::name("end_external_capture"), nb::is_method(),
      "Ends a capture begin_external_capture started: NotImplementedError "
      "on Ember's CPU devices, as on iree.runtime's.");

  nb::handle buffer = nb::type<HalBuffer>();
  nb::cpp_function_def(
      [](const HalBuffer& self, const Shape& shape,
         h::ElementType element_type) {
        return HalBufferView{
            Unwrap(h::BufferView::Create(self.buffer, shape.dims, element_type,
                                         h::EncodingType::kDenseRowMajor),
                   "could not create a buffer view")};
      },
      nb::scope(buffer), nb::name("create_view"), nb::is_method(), "shape"_a,
      "element_size"_a, "As create_view with a list: `shape` a Shape.");
}

}  // namespace ember::python
