#include "python/bindings/status_utils.h"

#include <string>

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
    case StatusCode::kNotFound:
      type = PyExc_ValueError;
      break;
    case StatusCode::kOutOfRange:
      type = PyExc_IndexError;
      break;
    case StatusCode::kUnimplemented:
      type = PyExc_NotImplementedError;
      break;
    default:
      break;
  }
  PyErr_SetString(type, text.c_str());
  throw nb::python_error();
}

}  // namespace ember::python
