// Drivers: the named factories that make devices ("local-sync",
// "local-task"), as IREE's driver registry and the `--device=` flag see them.
//
// A DriverRegistry maps a driver name to a factory; tools and bindings make
// devices from a URI "driver[://path][?key=value&...]" so that
// `--device=local-task?worker_count=2` means what it means to IREE's tools.
// Layers that provide devices (hal/cpu) add their drivers to a registry; the
// registry itself knows no device kind.
//
// Thread safety: registration during start-up; lookups from any thread.
#pragma once

#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/ref_counted.h"
#include "runtime/base/status.h"
#include "runtime/hal/device.h"

namespace ember::hal {

// A parsed device URI.
struct DeviceUri {
  std::string driver;
  std::string path;  // after "://", may be empty
  std::map<std::string, std::string> parameters;
};
// Parses "driver", "driver://path" and "driver?key=value&key2=value2".
Result<DeviceUri> ParseDeviceUri(std::string_view uri);

struct DriverInfo {
  std::string name;
  std::string description;
};

class DriverRegistry {
 public:
  using Factory = std::function<Result<Ref<Device>>(const DeviceUri& uri)>;

  Status Register(DriverInfo info, Factory factory);
  std::vector<DriverInfo> drivers() const;
  bool Has(std::string_view name) const;
  // Makes a device from a URI whose driver is registered (NOT_FOUND names
  // the known drivers otherwise).
  Result<Ref<Device>> CreateDevice(std::string_view uri) const;

 private:
  struct Entry {
    DriverInfo info;
    Factory factory;
  };
  mutable std::mutex mutex_;
  std::vector<Entry> entries_;
};

}  // namespace ember::hal
