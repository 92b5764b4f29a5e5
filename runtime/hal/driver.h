// Drivers: the named factories that make devices ("local-sync",
// "local-task"), as IREE's driver registry and the `--device=` flag see them.
//
// A DriverRegistry maps a driver name to a factory; tools and bindings make
// devices from a URI "driver[://path][?key=value&...]" so that
// `--device=local-task?worker_count=2` means what it means to IREE's tools.
// Layers that provide devices (hal/cpu, hal/vulkan) add their drivers to a
// registry, and runtime/drivers/ builds the one registry of everything the
// build has; the registry itself knows no device kind.
//
// A driver can be known but unavailable on this machine (`vulkan` without a
// Vulkan loader or device): it is left out of drivers() -- as IREE leaves it
// out of query_available_drivers -- and creating its device says why.
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

// One device of a driver, as `--list_devices` and query_available_devices
// show it.
struct DeviceInfo {
  uint64_t device_id = 0;
  std::string path;  // what goes after "driver://" to pick this device
  std::string name;
};

class DriverRegistry {
 public:
  using Factory = std::function<Result<Ref<Device>>(const DeviceUri& uri)>;
  using Enumerator = std::function<Result<std::vector<DeviceInfo>>()>;

  // `enumerate` lists the driver's devices; without one the driver has one
  // device, {0, "", "default"} (the CPU drivers).
  Status Register(DriverInfo info, Factory factory, Enumerator enumerate = {});
  // A driver this build has that cannot run here, and why (`why` not OK).
  void RegisterUnavailable(DriverInfo info, Status why);

  // The available drivers, in registration order.
  std::vector<DriverInfo> drivers() const;
  bool Has(std::string_view name) const;
  Result<std::vector<DeviceInfo>> EnumerateDevices(
      std::string_view driver) const;
  // Makes a device from a URI whose driver is registered (NOT_FOUND names
  // the available drivers otherwise, or says why a known driver is
  // unavailable).
  Result<Ref<Device>> CreateDevice(std::string_view uri) const;

 private:
  struct Entry {
    DriverInfo info;
    Factory factory;
    Enumerator enumerate;
  };
  struct Unavailable {
    DriverInfo info;
    Status why;
  };
  std::vector<Unavailable> unavailable_;
  mutable std::mutex mutex_;
  std::vector<Entry> entries_;
};

}  // namespace ember::hal
