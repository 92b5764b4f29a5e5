// RefCounted and Ref<T>: intrusive reference counting for objects that many
// owners share and that travel through VM registers as refs (vm.buffer,
// vm.list, and the HAL's buffers, views, fences and devices).
//
// The count lives inside the object (one atomic word), so a raw pointer can
// cross any seam -- a VM register, a C callback, a Python capsule -- and be
// turned back into an owning handle without a side table. The price is that
// every such seam must say whether the pointer it hands over carries a
// reference or not; Ref<T> makes the caller spell it out:
//
//   Ref<T>::Adopt(p)   p already carries one reference; the Ref takes it over.
//   Ref<T>::Retain(p)  p is borrowed; the Ref adds a reference of its own.
//   ref.release()      the Ref gives its reference away as a raw pointer.
//
// Objects are born with a count of one, and MakeRef<T>(...) adopts that
// reference, so `new` and `delete` of ref-counted objects appear only in this
// header: MakeRef allocates and the last ReleaseReference destroys through the
// virtual destructor.
//
// Thread safety: counting is atomic, so Refs to one object may be copied and
// dropped on any threads at once. A new reference is always made from an
// existing one, so the increment needs no ordering; the decrement is acq_rel
// so that every write made through any owner happens-before the destructor
// that runs on the thread dropping the last reference. What the object itself
// guards is up to the object.
#pragma once

#include <atomic>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace ember {

class RefCounted {
 public:
  RefCounted(const RefCounted&) = delete;
  RefCounted& operator=(const RefCounted&) = delete;

  // Low-level counting; prefer Ref<T>. Const because sharing a read-only
  // object still needs to count its owners.
  void AddReference() const noexcept {
    reference_count_.fetch_add(1, std::memory_order_relaxed);
  }
  void ReleaseReference() const noexcept {
    if (reference_count_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      delete this;
    }
  }

  // A snapshot that may be stale by the time it is read; for tests and
  // debugging only.
  uint32_t reference_count_for_testing() const noexcept {
    return reference_count_.load(std::memory_order_relaxed);
  }

 protected:
  RefCounted() = default;
  virtual ~RefCounted() = default;

 private:
  mutable std::atomic<uint32_t> reference_count_{1};
};

template <typename T>
class Ref {
 public:
  constexpr Ref() noexcept = default;
  constexpr Ref(std::nullptr_t) noexcept {}

  // Takes over the reference that `pointer` carries (may be null).
  [[nodiscard]] static Ref Adopt(T* pointer) noexcept {
    Ref result;
    result.pointer_ = pointer;
    return result;
  }
  // Adds a reference to a borrowed `pointer` (may be null).
  [[nodiscard]] static Ref Retain(T* pointer) noexcept {
    if (pointer) pointer->AddReference();
    return Adopt(pointer);
  }

  Ref(const Ref& other) noexcept : pointer_(other.pointer_) {
    if (pointer_) pointer_->AddReference();
  }
  Ref(Ref&& other) noexcept
      : pointer_(std::exchange(other.pointer_, nullptr)) {}

  // Implicit upcasts, e.g. Ref<Buffer> to Ref<RefCounted>.
  template <typename U>
  requires std::is_convertible_v<U*, T*> Ref(const Ref<U>& other)
  noexcept : pointer_(other.get()) {
    if (pointer_) pointer_->AddReference();
  }
  template <typename U>
  requires std::is_convertible_v<U*, T*> Ref(Ref<U>&& other)
  noexcept : pointer_(other.release()) {}

  Ref& operator=(const Ref& other) noexcept {
    // Retain before release so that self-assignment is harmless.
    Ref(other).swap(*this);
    return *this;
  }
  Ref& operator=(Ref&& other) noexcept {
    Ref(std::move(other)).swap(*this);
    return *this;
  }
  Ref& operator=(std::nullptr_t) noexcept {
    reset();
    return *this;
  }

  ~Ref() {
    if (pointer_) pointer_->ReleaseReference();
  }

  T* get() const noexcept { return pointer_; }
  T* operator->() const noexcept { return pointer_; }
  T& operator*() const noexcept { return *pointer_; }
  explicit operator bool() const noexcept { return pointer_ != nullptr; }

  // Gives up ownership without touching the count; the caller now holds the
  // reference (hand it back later with Adopt).
  [[nodiscard]] T* release() noexcept {
    return std::exchange(pointer_, nullptr);
  }

  void reset() noexcept { Ref().swap(*this); }
  void swap(Ref& other) noexcept { std::swap(pointer_, other.pointer_); }

 private:
  T* pointer_ = nullptr;
};

template <typename T, typename U>
bool operator==(const Ref<T>& a, const Ref<U>& b) noexcept {
  return a.get() == b.get();
}
template <typename T>
bool operator==(const Ref<T>& a, std::nullptr_t) noexcept {
  return a.get() == nullptr;
}
template <typename T, typename U>
std::strong_ordering operator<=>(const Ref<T>& a, const Ref<U>& b) noexcept {
  return std::compare_three_way()(a.get(), b.get());
}

// Allocates a T (born with one reference) and adopts it.
template <typename T, typename... Args>
Ref<T> MakeRef(Args&&... args) {
  static_assert(std::is_base_of_v<RefCounted, T>,
                "MakeRef is for RefCounted types");
  return Ref<T>::Adopt(new T(std::forward<Args>(args)...));
}

// Downcast of a Ref whose dynamic type the caller has already checked (for
// example through a VM type tag). Moves the reference; no counting.
template <typename T, typename U>
Ref<T> StaticRefCast(Ref<U>&& ref) noexcept {
  return Ref<T>::Adopt(static_cast<T*>(ref.release()));
}
template <typename T, typename U>
Ref<T> StaticRefCast(const Ref<U>& ref) noexcept {
  return Ref<T>::Retain(static_cast<T*>(ref.get()));
}

}  // namespace ember
