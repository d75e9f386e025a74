import Foundation

/// A captured range whose bounds are attribute values.
protocol PredicateRangeConstant {
    /// The bounds, and whether the upper one is included.
    var databaseBounds: (lower: Value, upper: Value, closed: Bool) { get }
}

extension ClosedRange: PredicateRangeConstant where Bound: ValueConvertible {
    var databaseBounds: (lower: Value, upper: Value, closed: Bool) {
        (lowerBound.databaseValue, upperBound.databaseValue, true)
    }
}

extension Range: PredicateRangeConstant where Bound: ValueConvertible {
    var databaseBounds: (lower: Value, upper: Value, closed: Bool) {
        (lowerBound.databaseValue, upperBound.databaseValue, false)
    }
}

extension PredicateTranslation {
    /// The node for a captured constant: an attribute value (or nil), a raw-value enum, a range or a
    /// sequence of values; nil when `constant` is none of these.
    static func constantNode(_ constant: Any) -> PredicateNode? {
        if let value = databaseValue(constant) { return .value(value) }
        if let range = constant as? any PredicateRangeConstant {
            let bounds = range.databaseBounds
            return .range(lower: bounds.lower, upper: bounds.upper, closed: bounds.closed)
        }
        if let sequence = constant as? any Sequence {
            var values: [Value] = []
            for element in sequence {
                guard let value = databaseValue(element) else { return nil }
                values.append(value)
            }
            return .list(values)
        }
        return nil
    }

    /// `constant` as a database value: an attribute type or its optional, or a raw-value enum.
    static func databaseValue(_ constant: Any) -> Value? {
        if let convertible = constant as? any ValueConvertible { return convertible.databaseValue }
        if let raw = constant as? any RawRepresentable { return databaseValue(raw.rawValue) }
        let mirror = Mirror(reflecting: constant)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first else { return .null }
            return databaseValue(wrapped.value)
        }
        return nil
    }
}
