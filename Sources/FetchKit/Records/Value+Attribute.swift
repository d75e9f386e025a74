extension Value {
    /// The value an attribute stores for `value`.
    @inlinable
    public static func of<T: ValueConvertible>(_ value: T) -> Value {
        value.databaseValue
    }

    /// The value an attribute stores for `value`: its raw value.
    @inlinable
    public static func of<T: RawRepresentable>(_ value: T) -> Value where T.RawValue: ValueConvertible {
        value.rawValue.databaseValue
    }

    /// The value an attribute stores for `value`: its raw value, or `NULL`.
    @inlinable
    public static func of<T: RawRepresentable>(_ value: T?) -> Value where T.RawValue: ValueConvertible {
        value?.rawValue.databaseValue ?? .null
    }
}
