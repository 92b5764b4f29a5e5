#include "runtime/modules/check/check_module.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <utility>

#include "runtime/hal/buffer_view_format.h"
#include "runtime/modules/hal/hal_module.h"
#include "runtime/vm/native_module.h"

namespace ember::modules::check {
namespace {

namespace h = ember::hal;

struct CheckState : vm::ModuleState {
  std::shared_ptr<CheckFailures> failures;
};

Result<h::BufferMapping> MapForReading(h::BufferView& view) {
  return view.buffer()->Map(h::MappingMode::kScoped, h::MemoryAccess::kRead, 0,
                            h::kWholeBuffer);
}

Result<std::string> Describe(h::BufferView& lhs, h::BufferView& rhs) {
  // At most 1024 elements each, as IREE prints them.
  EMBER_ASSIGN_OR_RETURN(std::string lhs_text, h::FormatBufferView(lhs, 1024));
  EMBER_ASSIGN_OR_RETURN(std::string rhs_text, h::FormatBufferView(rhs, 1024));
  return "\n  lhs:\n    " + lhs_text + "\n  rhs:\n    " + rhs_text;
}

Status ExpectTrue(CheckState& state, int32_t operand) {
  if (!operand) {
    state.failures->Add("Expected " + std::to_string(operand) +
                        " to be nonzero.");
  }
  return Status::Ok();
}

Status ExpectFalse(CheckState& state, int32_t operand) {
  if (operand) {
    state.failures->Add("Expected " + std::to_string(operand) + " to be zero.");
  }
  return Status::Ok();
}

Status ExpectAllTrue(CheckState& state, Ref<h::Device> device,
                     Ref<h::BufferView> operand) {
  if (!device) return InvalidArgumentError("device is null");
  if (!operand) return InvalidArgumentError("operand is null");
  const h::ElementType type = operand->element_type();
  const bool supported =
      (h::IsInteger(type) && !h::IsBoolean(type) &&
       (h::BitCount(type) == 8 || h::BitCount(type) == 16 ||
        h::BitCount(type) == 32 || h::BitCount(type) == 64)) ||
      type == h::ElementType::kFloat32 || type == h::ElementType::kFloat64;
  if (!supported) {
    return InvalidArgumentError("unsupported element type " +
                                h::FormatElementType(type));
  }
  EMBER_ASSIGN_OR_RETURN(h::BufferMapping mapping, MapForReading(*operand));
  const size_t size = h::DenseByteCount(type);
  const uint64_t count =
      std::min<uint64_t>(operand->element_count(), mapping.size() / size);
  for (uint64_t i = 0; i < count; ++i) {
    const uint8_t* at = mapping.data() + i * size;
    bool zero = true;
    if (type == h::ElementType::kFloat32) {
      float v;
      std::memcpy(&v, at, 4);
      zero = v == 0.0f;
    } else if (type == h::ElementType::kFloat64) {
      double v;
      std::memcpy(&v, at, 8);
      zero = v == 0.0;
    } else {
      for (size_t b = 0; b < size; ++b) zero = zero && at[b] == 0;
    }
    if (zero) {
      EMBER_ASSIGN_OR_RETURN(std::string text,
                             h::FormatBufferView(*operand, 1024));
      state.failures->Add("Expected every element to be nonzero; element " +
                          std::to_string(i) + " is zero.\n  operand:\n    " +
                          text);
      break;
    }
  }
  return Status::Ok();
}

bool SameShape(const h::BufferView& lhs, const h::BufferView& rhs) {
  return std::equal(lhs.shape().begin(), lhs.shape().end(), rhs.shape().begin(),
                    rhs.shape().end());
}

Status ExpectEq(CheckState& state, Ref<h::Device> device,
                Ref<h::BufferView> lhs, Ref<h::BufferView> rhs) {
  if (!device) return InvalidArgumentError("device is null");
  if (!lhs || !rhs) return InvalidArgumentError("operand is null");
  EMBER_ASSIGN_OR_RETURN(h::BufferMapping lhs_bytes, MapForReading(*lhs));
  EMBER_ASSIGN_OR_RETURN(h::BufferMapping rhs_bytes, MapForReading(*rhs));
  const bool types_eq = lhs->element_type() == rhs->element_type();
  const bool shapes_eq = SameShape(*lhs, *rhs);
  const bool contents_eq =
      lhs_bytes.size() == rhs_bytes.size() &&
      std::memcmp(lhs_bytes.data(), rhs_bytes.data(), lhs_bytes.size()) == 0;
  if (types_eq && shapes_eq && contents_eq) return Status::Ok();
  std::string message = "Expected equality of these values.";
  if (!types_eq) message += " Element types do not match.";
  if (!shapes_eq) message += " Shapes do not match.";
  if (!contents_eq) message += " Contents does not match.";
  EMBER_ASSIGN_OR_RETURN(std::string operands, Describe(*lhs, *rhs));
  state.failures->Add(message + operands);
  return Status::Ok();
}

Status ExpectAlmostEq(CheckState& state, Ref<h::Device> device,
                      Ref<h::BufferView> lhs, Ref<h::BufferView> rhs,
                      float atol, float rtol) {
  if (!device) return InvalidArgumentError("device is null");
  if (!lhs || !rhs) return InvalidArgumentError("operand is null");
  const h::ElementType type = lhs->element_type();
  const bool types_eq = type == rhs->element_type();
  const bool shapes_eq = SameShape(*lhs, *rhs);
  bool contents_eq = true;
  uint64_t index = 0;
  double lhs_value = 0, rhs_value = 0;
  if (types_eq && shapes_eq) {
    double probe;
    uint8_t zero[8] = {};
    if (!h::IsFloat(type) ||
        h::NumericalTypeOf(type) == h::NumericalType::kFloatComplex ||
        !h::DecodeFloat(zero, type, &probe)) {
      return InvalidArgumentError("unsupported element type " +
                                  h::FormatElementType(type));
    }
    EMBER_ASSIGN_OR_RETURN(h::BufferMapping lhs_bytes, MapForReading(*lhs));
    EMBER_ASSIGN_OR_RETURN(h::BufferMapping rhs_bytes, MapForReading(*rhs));
    const size_t size = h::DenseByteCount(type);
    const uint64_t count =
        std::min<uint64_t>(lhs->element_count(),
                           std::min(lhs_bytes.size(), rhs_bytes.size()) / size);
    // f64 compares in double, every narrower float in float (as IREE).
    const bool wide = type == h::ElementType::kFloat64;
    for (uint64_t i = 0; i < count && contents_eq; ++i) {
      double a, b;
      h::DecodeFloat(lhs_bytes.data() + i * size, type, &a);
      h::DecodeFloat(rhs_bytes.data() + i * size, type, &b);
      bool close;
      if (wide) {
        close = a == b ||
                (std::isfinite(b) &&
                 std::fabs(a - b) <= atol + rtol * std::fabs(b)) ||
                (std::isnan(a) && std::isnan(b));
      } else {
        const float fa = static_cast<float>(a), fb = static_cast<float>(b);
        close = fa == fb ||
                (std::isfinite(fb) &&
                 std::fabs(fa - fb) <= atol + rtol * std::fabs(fb)) ||
                (std::isnan(fa) && std::isnan(fb));
      }
      if (!close) {
        contents_eq = false;
        index = i;
        lhs_value = a;
        rhs_value = b;
      }
    }
  }
  if (types_eq && shapes_eq && contents_eq) return Status::Ok();
  std::string message = "Expected near equality of these values.";
  if (!types_eq) message += " Element types do not match.";
  if (!shapes_eq) message += " Shapes do not match.";
  if (!contents_eq) {
    char detail[256];
    std::snprintf(detail, sizeof(detail),
                  " Contents does not match to tolerance parameters atol=%g, "
                  "rtol=%g. The first failure occurs at index %llu as the lhs "
                  "value %g differs from the rhs value %g by %.3e.",
                  atol, rtol, static_cast<unsigned long long>(index), lhs_value,
                  rhs_value, rhs_value - lhs_value);
    message += detail;
  }
  EMBER_ASSIGN_OR_RETURN(std::string operands, Describe(*lhs, *rhs));
  state.failures->Add(message + operands);
  return Status::Ok();
}

}  // namespace

void CheckFailures::Add(std::string message) {
  std::lock_guard lock(mutex_);
  failures_.push_back(std::move(message));
}

std::vector<std::string> CheckFailures::Take() {
  std::lock_guard lock(mutex_);
  return std::exchange(failures_, {});
}

size_t CheckFailures::count() const {
  std::lock_guard lock(mutex_);
  return failures_.size();
}

Result<std::shared_ptr<vm::Module>> CreateCheckModule(
    std::shared_ptr<CheckFailures> failures) {
  if (!failures) return InvalidArgumentError("check module needs a sink");
  using vm::Export;
  std::vector<vm::NativeExport<CheckState>> exports = {
      Export<"expect_all_true", "0rr_v", &ExpectAllTrue>(),
      Export<"expect_almost_eq", "0rrrff_v", &ExpectAlmostEq>(),
      Export<"expect_eq", "0rrr_v", &ExpectEq>(),
      Export<"expect_false", "0i_v", &ExpectFalse>(),
      Export<"expect_true", "0i_v", &ExpectTrue>(),
  };
  return std::shared_ptr<vm::Module>(
      std::make_shared<vm::NativeModule<CheckState>>(
          "check", 0, std::move(exports),
          [failures](vm::Context&) -> Result<std::unique_ptr<CheckState>> {
            auto state = std::make_unique<CheckState>();
            state->failures = failures;
            return state;
          }));
}

}  // namespace ember::modules::check
