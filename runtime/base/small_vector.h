// SmallVector<T, N>: a vector whose first N elements live inside the object.
//
// For the short lists on hot paths (a fence's timepoints, a call's binding
// table, a buffer view's shape) that are made and dropped on every call: up
// to N elements cost no allocation. Only the elements in use are
// constructed, so making an empty one costs nothing whatever N is (the
// inline room is raw storage, not N default-constructed values). Past N
// the elements move to the heap, and stay there until clear().
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace ember {

template <typename T, size_t N>
class SmallVector {
 public:
  SmallVector() noexcept {}  // NOLINT(modernize-use-equals-default)
  SmallVector(const SmallVector& other) {
    for (const T& value : other) push_back(value);
  }
  SmallVector(SmallVector&& other) noexcept { TakeFrom(other); }
  SmallVector& operator=(const SmallVector& other) {
    if (this != &other) {
      clear();
      for (const T& value : other) push_back(value);
    }
    return *this;
  }
  SmallVector& operator=(SmallVector&& other) noexcept {
    if (this != &other) {
      clear();
      TakeFrom(other);
    }
    return *this;
  }
  ~SmallVector() { DestroyInline(); }

  size_t size() const { return on_heap_ ? heap_.size() : size_; }
  bool empty() const { return size() == 0; }
  T* data() { return on_heap_ ? heap_.data() : inline_data(); }
  const T* data() const { return on_heap_ ? heap_.data() : inline_data(); }
  T* begin() { return data(); }
  T* end() { return data() + size(); }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size(); }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }

  void push_back(T value) {
    if (!on_heap_) {
      if (size_ < N) {
        ::new (static_cast<void*>(inline_data() + size_)) T(std::move(value));
        ++size_;
        return;
      }
      heap_.reserve(2 * N);
      for (size_t i = 0; i < size_; ++i) {
        heap_.push_back(std::move(inline_data()[i]));
      }
      DestroyInline();
      on_heap_ = true;
    }
    heap_.push_back(std::move(value));
  }

  void clear() {
    DestroyInline();
    heap_.clear();
    on_heap_ = false;
  }

 private:
  T* inline_data() { return std::launder(reinterpret_cast<T*>(storage_)); }
  const T* inline_data() const {
    return std::launder(reinterpret_cast<const T*>(storage_));
  }
  void DestroyInline() {
    // (i < N is known true; it tells the compiler the loop is bounded.)
    for (size_t i = 0; i < size_ && i < N; ++i)
      std::destroy_at(inline_data() + i);
    size_ = 0;
  }
  // Takes `other`'s elements (this one is empty); `other` ends empty.
  void TakeFrom(SmallVector& other) {
    if (other.on_heap_) {
      heap_ = std::move(other.heap_);
      on_heap_ = true;
      other.clear();
      return;
    }
    for (size_t i = 0; i < other.size_; ++i) {
      ::new (static_cast<void*>(inline_data() + i))
          T(std::move(other.inline_data()[i]));
    }
    size_ = other.size_;
    other.DestroyInline();
  }

  alignas(T) unsigned char storage_[N * sizeof(T)];
  size_t size_ = 0;  // inline elements constructed (0 once on the heap)
  bool on_heap_ = false;
  std::vector<T> heap_;
};

}  // namespace ember
