#include "python/bindings/python_owner.h"

#include <atomic>
#include <mutex>
#include <vector>

namespace ember::python {
namespace {

struct PendingReleases {
  std::mutex mutex;
  std::vector<Py_buffer*> views;
  bool scheduled = false;  // a pending call is queued
  std::atomic<bool> any{false};
};

// Never destroyed: releases may be queued during interpreter shutdown.
PendingReleases& Pending() {
  static PendingReleases* pending = new PendingReleases();
  return *pending;
}

bool Finalizing() {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsFinalizing() != 0;
#else
  return _Py_IsFinalizing() != 0;
#endif
}

int DrainPendingCall(void*) {
  DrainPythonReleases();
  return 0;
}

}  // namespace

void ReleasePythonBuffer(Py_buffer* view) {
  if (!Py_IsInitialized() || Finalizing()) return;
  if (PyGILState_Check()) {
    PyBuffer_Release(view);
    delete view;
    return;
  }
  PendingReleases& pending = Pending();
  std::lock_guard<std::mutex> lock(pending.mutex);
  pending.views.push_back(view);
  pending.any.store(true, std::memory_order_release);
  if (!pending.scheduled) {
    // Fails only when the interpreter's queue is full; the next native call
    // drains instead.
    pending.scheduled = Py_AddPendingCall(&DrainPendingCall, nullptr) == 0;
  }
}

void DrainPythonReleases() {
  PendingReleases& pending = Pending();
  if (!pending.any.load(std::memory_order_acquire)) return;
  std::vector<Py_buffer*> views;
  {
    std::lock_guard<std::mutex> lock(pending.mutex);
    views.swap(pending.views);
    pending.scheduled = false;
    pending.any.store(false, std::memory_order_relaxed);
  }
  for (Py_buffer* view : views) {
    PyBuffer_Release(view);
    delete view;
  }
}

}  // namespace ember::python
