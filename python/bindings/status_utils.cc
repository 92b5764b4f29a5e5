#include "python/bindings/status_utils.h"

#include <string>

#include "runtime/base/printable.h"

namespace nb = nanobind;

namespace ember::python {

[[noreturn]] void ThrowStatus(const Status& status, const char* context) {
  std::string text;
  if (context) {
    text = context;
    text += ": ";
  }
  text += status.ToString();
  PyObject* type = PyExc_RuntimeError;
  switch (status.code()) {
    case StatusCode::kInvalidArgument:
    case StatusCode::kNotFound: type = PyExc_ValueError; break;
    case StatusCode::kOutOfRange: type = PyExc_IndexError; break;
    case StatusCode::kUnimplemented: type = PyExc_NotImplementedError; break;
    default: break;
  }
  // Messages carry text from the module file (fail messages, names, source
  // locations), which need not be UTF-8: invalid bytes become \xNN escapes
  // instead of replacing the error with a UnicodeDecodeError (which is what
  // iree.runtime 3.11 raises), and NUL bytes do not cut the message short.
  const std::string escaped = Escaped(text, Escape::kInvalidUtf8);
  PyObject* message = PyUnicode_DecodeUTF8(
      escaped.data(), static_cast<Py_ssize_t>(escaped.size()), "strict");
  if (message == nullptr) {
    PyErr_Clear();
    message = PyUnicode_FromString("(error message could not be decoded)");
  }
  PyErr_SetObject(type, message);
  Py_XDECREF(message);
  throw nb::python_error();
}

}  // namespace ember::python
