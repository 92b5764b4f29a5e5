// Text forms of tensor contents, as IREE's tools print them.
//
// `2x2xf32=[1 2][3 4]`: the shape and element type, then the elements of the
// innermost dimension separated by spaces and every outer dimension's
// entries in brackets. ember-run-module prints results this way and the
// `check` module shows differing operands this way, so output can be
// compared with iree-run-module's character for character.
//
// The details are those of iree-run-module 3.13
// (`iree_hal_buffer_view_format`), which since 3.12 formats through the C
// library's printf (3.11 used a bundled printf whose digits differed for some
// doubles):
//   - integers in decimal, signless ones as signed;
//   - every float type (f16, bf16, the f8 variants decoded exactly, f32, f64)
//     as `%G` of the value as a double (FormatFloatG below);
//   - anything else (i1 booleans, sub-byte integers, complex numbers, opaque
//     data) as the uppercase hex of its bytes in memory order (`01`,
//     `0000803F00000040`);
//   - a budget of elements shared by the whole tensor: each innermost row
//     prints what is left of it and "..." when that is less than the row,
//     while every outer bracket is still printed; with a budget of 3,
//     `2x2x2xi32=[[1 2][3...]][[...][...]]`.
#pragma once

#include <cstdint>
#include <string>

#include "runtime/base/status.h"
#include "runtime/hal/buffer_view.h"
#include "runtime/hal/element_type.h"

namespace ember::hal {

// The value of one element of a floating-point `type` (f16, bf16, f32, f64
// and the f8 variants) at `bytes`; false for other types.
bool DecodeFloat(const uint8_t* bytes, ElementType type, double* value);

// `value` as printf's "%G" writes it (or "%g" when not `uppercase`), the
// way IREE 3.13 prints floats: six significant digits, trailing zeros
// dropped, an exponent of at least two digits below 1e-4 or from 1e6 up;
// "INF", "-INF", "NAN" and "-NAN" (lowercase for "%g": a NaN's sign is
// shown).
std::string FormatFloatG(double value, bool uppercase = true);

// One element as iree_hal_format_element writes it ("1.5", "-3", "01" for
// an i1, "0000803F00000040" for a complex f32 pair).
std::string FormatElement(const uint8_t* bytes, ElementType type);

// "SHAPExTYPE=..." for `view`, printing at most `max_elements` elements as
// described at the top of this file. OUT_OF_RANGE when the buffer holds
// fewer bytes than the elements to print (IREE fails alike; sub-byte types
// are read a byte per element).
Result<std::string> FormatBufferView(BufferView& view,
                                     uint64_t max_elements = ~uint64_t{0});

}  // namespace ember::hal
