import Foundation

/// A Swift type an attribute stores: the type's ``AttributeType`` and whether it may be `NULL`.
///
/// `Int`, `Int64`, `Int32`, `Double`, `Float`, `String`, `Bool`, `Date`, `Data`, `UUID` and their
/// optionals conform; an enum whose raw value is one of them is stored as its raw value.
public protocol AttributeValue: ValueConvertible {
    /// The attribute type that stores values of this type.
    static var attributeType: AttributeType { get }
    /// Whether the attribute may be `NULL` (optionals).
    static var isOptionalAttribute: Bool { get }
}

extension AttributeValue {
    public static var isOptionalAttribute: Bool { false }
}

extension Int64: AttributeValue { public static var attributeType: AttributeType { .integer } }
extension Int: AttributeValue { public static var attributeType: AttributeType { .integer } }
extension Int32: AttributeValue { public static var attributeType: AttributeType { .integer } }
extension Double: AttributeValue { public static var attributeType: AttributeType { .double } }
extension Float: AttributeValue { public static var attributeType: AttributeType { .double } }
extension String: AttributeValue { public static var attributeType: AttributeType { .text } }
extension Bool: AttributeValue { public static var attributeType: AttributeType { .bool } }
extension Date: AttributeValue { public static var attributeType: AttributeType { .date } }
extension Data: AttributeValue { public static var attributeType: AttributeType { .binary } }
extension UUID: AttributeValue { public static var attributeType: AttributeType { .text } }

extension Optional: AttributeValue where Wrapped: AttributeValue {
    public static var attributeType: AttributeType { Wrapped.attributeType }
    public static var isOptionalAttribute: Bool { true }
}
