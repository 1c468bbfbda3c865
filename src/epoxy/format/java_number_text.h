// SPDX-License-Identifier: Apache-2.0
// Java's text of floating-point numbers (Double.toString, Float.toString): what Spark prints for
// doubles and floats and what CAST(x AS STRING) gives.
#pragma once

#include <string>

namespace epoxy {

/// Appends `value` as Java's Double.toString prints it: the shortest digits that read back as the
/// same double, plain between 10^-3 and 10^7 ("0.001", "1.0", "1234567.0"), else in computerized
/// scientific notation ("1.0E7", "1.0E-4", "1.2345E-10"); "NaN", "Infinity", "-Infinity", "-0.0".
void AppendJavaDouble(double value, std::string* out);
/// The same for a float (Float.toString): the shortest digits that read back as the same float.
void AppendJavaFloat(float value, std::string* out);

}  // namespace epoxy
