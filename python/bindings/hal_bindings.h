// The structs behind the HAL's Python classes (HalDevice, HalBufferView,
// ...), shared by the binding files that need them: hal_bindings.cc binds
// the classes, function_bindings.cc packs arguments and unpacks results of
// calls without going through Python. Each holds one owning reference on
// its native object.
#pragma once

#include <nanobind/nanobind.h>

#include <string>

#include "runtime/base/ref_counted.h"
#include "runtime/hal/buffer_view.h"
#include "runtime/hal/command_buffer.h"
#include "runtime/hal/device.h"
#include "runtime/hal/semaphore.h"

namespace ember::python {

namespace nb = nanobind;
namespace h = ember::hal;

struct HalDriver {
  std::string name;
};
struct HalDevice {
  Ref<h::Device> device;
};
struct HalAllocator {
  Ref<h::Allocator> allocator;
};
struct HalBuffer {
  Ref<h::Buffer> buffer;
};
struct HalBufferView {
  Ref<h::BufferView> view;
};
struct HalSemaphore {
  Ref<h::Semaphore> semaphore;
};
struct HalFence {
  Ref<h::Fence> fence;
};
struct HalCommandBuffer {
  Ref<h::CommandBuffer> command_buffer;
  // False from `HalCommandBuffer(device, begin=False)` until begin(); a
  // command buffer that arrives from a program is recording or finalized.
  bool begun = true;
};
struct MappedMemory {
  h::BufferMapping mapping;
  Ref<h::Buffer> buffer;  // keeps the bytes alive with the mapping
};

// A C-contiguous Python buffer, read-only view. The format is not asked
// for: only the bytes and the shape are used, and numpy refuses a format for
// dtypes it cannot describe in one (ml_dtypes' bfloat16 and float8 types:
// "cannot include dtype 'E' in a buffer"), which iree.runtime accepts.
struct PythonBuffer {
  Py_buffer view{};
  explicit PythonBuffer(nb::handle object) {
    if (PyObject_GetBuffer(object.ptr(), &view,
                           PyBUF_C_CONTIGUOUS | PyBUF_ND) != 0) {
      throw nb::python_error();
    }
  }
  ~PythonBuffer() { PyBuffer_Release(&view); }
  PythonBuffer(const PythonBuffer&) = delete;
  PythonBuffer& operator=(const PythonBuffer&) = delete;
};

}  // namespace ember::python
