#include "python/bindings/python_owner.h"

#include <atomic>
#include <mutex>
#include <vector>

namespace ember::python {
namespace {

struct PendingRelease {
  void (*release)(void* owner);
  void* owner;
};

struct PendingReleases {
  std::mutex mutex;
  std::vector<PendingRelease> releases;
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

void ReleaseBuffer(void* owner) {
  auto* view = static_cast<Py_buffer*>(owner);
  PyBuffer_Release(view);
  delete view;
}

}  // namespace

void ReleasePythonBuffer(Py_buffer* view) {
  ReleasePythonOwned(&ReleaseBuffer, view);
}

void ReleasePythonOwned(void (*release)(void* owner), void* owner) {
  if (!Py_IsInitialized() || Finalizing()) return;
  if (PyGILState_Check()) {
    release(owner);
    return;
  }
  PendingReleases& pending = Pending();
  std::lock_guard<std::mutex> lock(pending.mutex);
  pending.releases.push_back({release, owner});
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
  std::vector<PendingRelease> releases;
  {
    std::lock_guard<std::mutex> lock(pending.mutex);
    releases.swap(pending.releases);
    pending.scheduled = false;
    pending.any.store(false, std::memory_order_relaxed);
  }
  for (const PendingRelease& entry : releases) entry.release(entry.owner);
}

}  // namespace ember::python
