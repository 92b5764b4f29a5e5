#include "runtime/hal/driver.h"

#include <utility>

namespace ember::hal {

Result<DeviceUri> ParseDeviceUri(std::string_view uri) {
  DeviceUri parsed;
  size_t query = uri.find('?');
  std::string_view head = uri.substr(0, query);
  size_t scheme_end = head.find("://");
  parsed.driver = std::string(head.substr(0, scheme_end));
  if (scheme_end != std::string_view::npos) {
    parsed.path = std::string(head.substr(scheme_end + 3));
  }
  if (parsed.driver.empty()) {
    return InvalidArgumentError("device URI '" + std::string(uri) +
                                "' names no driver");
  }
  if (query != std::string_view::npos) {
    std::string_view rest = uri.substr(query + 1);
    while (!rest.empty()) {
      size_t amp = rest.find('&');
      std::string_view pair = rest.substr(0, amp);
      size_t eq = pair.find('=');
      if (eq == std::string_view::npos || eq == 0) {
        return InvalidArgumentError("device URI parameter '" +
                                    std::string(pair) + "' is not key=value");
      }
      parsed.parameters[std::string(pair.substr(0, eq))] =
          std::string(pair.substr(eq + 1));
      if (amp == std::string_view::npos) break;
      rest = rest.substr(amp + 1);
    }
  }
  return parsed;
}

Status DriverRegistry::Register(DriverInfo info, Factory factory,
                                Enumerator enumerate) {
  std::lock_guard lock(mutex_);
  for (const Entry& entry : entries_) {
    if (entry.info.name == info.name) {
      return AlreadyExistsError("driver '" + info.name +
                                "' is already registered");
    }
  }
  entries_.push_back(
      {std::move(info), std::move(factory), std::move(enumerate)});
  return Status::Ok();
}

void DriverRegistry::RegisterUnavailable(DriverInfo info, Status why) {
  std::lock_guard lock(mutex_);
  unavailable_.push_back({std::move(info), std::move(why)});
}

Result<std::vector<DeviceInfo>> DriverRegistry::EnumerateDevices(
    std::string_view driver) const {
  Enumerator enumerate;
  bool found = false;
  {
    std::lock_guard lock(mutex_);
    for (const Entry& entry : entries_) {
      if (entry.info.name == driver) {
        enumerate = entry.enumerate;
        found = true;
      }
    }
    for (const Unavailable& entry : unavailable_) {
      if (!found && entry.info.name == driver) {
        return Status(entry.why.code(), "driver '" + std::string(driver) +
                                            "' is unavailable: " +
                                            std::string(entry.why.message()));
      }
    }
  }
  if (!found) {
    return NotFoundError("no driver '" + std::string(driver) +
                         "' is registered");
  }
  if (!enumerate) return std::vector<DeviceInfo>{{0, "", "default"}};
  return enumerate();
}

std::vector<DriverInfo> DriverRegistry::drivers() const {
  std::lock_guard lock(mutex_);
  std::vector<DriverInfo> infos;
  for (const Entry& entry : entries_) infos.push_back(entry.info);
  return infos;
}

bool DriverRegistry::Has(std::string_view name) const {
  std::lock_guard lock(mutex_);
  for (const Entry& entry : entries_) {
    if (entry.info.name == name) return true;
  }
  return false;
}

Result<Ref<Device>> DriverRegistry::CreateDevice(std::string_view uri) const {
  EMBER_ASSIGN_OR_RETURN(DeviceUri parsed, ParseDeviceUri(uri));
  Factory factory;
  std::string known;
  {
    std::lock_guard lock(mutex_);
    for (const Entry& entry : entries_) {
      if (!known.empty()) known += ", ";
      known += entry.info.name;
      if (entry.info.name == parsed.driver) factory = entry.factory;
    }
  }
  if (!factory) {
    std::lock_guard lock(mutex_);
    for (const Unavailable& entry : unavailable_) {
      if (entry.info.name == parsed.driver) {
        return Status(entry.why.code(), "driver '" + parsed.driver +
                                            "' is unavailable: " +
                                            std::string(entry.why.message()));
      }
    }
    return NotFoundError("no driver '" + parsed.driver +
                         "' is registered (available: " +
                         (known.empty() ? "none" : known) + ")");
  }
  return factory(parsed);
}

}  // namespace ember::hal
