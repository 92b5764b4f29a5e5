// SmallVector<T, N>: a vector whose first N elements live inside the object.
//
// For the short lists on hot paths (a fence's timepoints, a call's span
// arguments) that are made and dropped on every call: up to N elements cost
// no allocation. T must be default-constructible and movable; the unused
// inline slots hold default-constructed values (so a cleared slot releases
// what it held). Past N the elements move to the heap and stay there.
#pragma once

#include <array>
#include <cstddef>
#include <utility>
#include <vector>

namespace ember {

template <typename T, size_t N>
class SmallVector {
 public:
  SmallVector() = default;

  size_t size() const { return on_heap() ? heap_.size() : size_; }
  bool empty() const { return size() == 0; }
  T* data() { return on_heap() ? heap_.data() : inline_.data(); }
  const T* data() const { return on_heap() ? heap_.data() : inline_.data(); }
  T* begin() { return data(); }
  T* end() { return data() + size(); }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size(); }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }

  void push_back(T value) {
    if (!on_heap() && size_ < N) {
      inline_[size_++] = std::move(value);
      return;
    }
    if (!on_heap()) {
      heap_.reserve(2 * N);
      for (size_t i = 0; i < size_; ++i) {
        heap_.push_back(std::exchange(inline_[i], T()));
      }
      size_ = 0;
    }
    heap_.push_back(std::move(value));
  }

  void clear() {
    for (size_t i = 0; i < size_; ++i) inline_[i] = T();
    size_ = 0;
    heap_.clear();
  }

 private:
  bool on_heap() const { return !heap_.empty(); }

  std::array<T, N> inline_{};
  size_t size_ = 0;  // inline elements in use (0 once on the heap)
  std::vector<T> heap_;
};

}  // namespace ember
