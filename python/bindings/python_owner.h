// Giving back Python memory that a HAL buffer aliased.
//
// A buffer imported from a Python object (a numpy array, anything with the
// buffer protocol) holds a Py_buffer on it, and PyBuffer_Release needs the
// GIL. The last reference to such a buffer can go on any thread: a worker
// retiring a submission, the caller with the GIL released. Taking the GIL
// there could deadlock (the GIL holder may be waiting for that thread), so
// a release without the GIL is queued instead, and the queue is drained by
// the interpreter (Py_AddPendingCall) and at the start of every native call.
// Until then the Python object stays alive, which is always safe.
#pragma once

#include <Python.h>

namespace ember::python {

// Releases `view` (a heap Py_buffer, deleted afterwards) now if this thread
// holds the GIL, else as soon as a thread with the GIL drains the queue.
// After interpreter shutdown the view is left alone.
void ReleasePythonBuffer(Py_buffer* view);

// The same for any owner that may need the GIL to be given back (a DLPack
// producer's deleter, which may take the GIL itself): runs `release(owner)`
// now if this thread holds the GIL, else from the queue.
void ReleasePythonOwned(void (*release)(void* owner), void* owner);

// Runs the queued releases. Call with the GIL held.
void DrainPythonReleases();

}  // namespace ember::python
