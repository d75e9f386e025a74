extension RecordRow {
    /// The value of the entity's attribute at `position` (the primary key is 0), as `T`: what the
    /// `init(row:)` of an `@Entity` record reads, attribute by attribute, in the entity's order.
    ///
    /// - Throws: ``FetchKitError/Code/recordMapping`` naming the attribute, as ``subscript(_:)`` does.
    @inlinable
    public func column<T: ValueConvertible>(_ position: Int, as type: T.Type = T.self) throws -> T {
        try state._withUnsafeGuaranteedRef { try $0.read($0.attributes[position], as: T.self) }
    }

    /// The value of the attribute at `position`, the raw value of a `T`.
    ///
    /// - Throws: ``FetchKitError/Code/recordMapping`` naming the attribute when the raw value is no
    ///   case of `T`, or as ``subscript(_:)`` does.
    @inlinable
    public func column<T: RawRepresentable>(_ position: Int, as type: T.Type = T.self) throws -> T
    where T.RawValue: ValueConvertible {
        try state._withUnsafeGuaranteedRef { state in
            let name = state.attributes[position]
            let raw = try state.read(name, as: T.RawValue.self)
            guard let value = T(rawValue: raw) else { throw state.noCase(name, T.self, raw.databaseValue) }
            return value
        }
    }

    /// The value of the attribute at `position`, the raw value of a `T` or `NULL`.
    ///
    /// - Throws: ``FetchKitError/Code/recordMapping`` naming the attribute when the raw value is no
    ///   case of `T`, or as ``subscript(_:)`` does.
    @inlinable
    public func column<T: RawRepresentable>(_ position: Int, as type: T?.Type = T?.self) throws -> T?
    where T.RawValue: ValueConvertible {
        try state._withUnsafeGuaranteedRef { state in
            let name = state.attributes[position]
            guard let raw = try state.read(name, as: T.RawValue?.self) else { return nil }
            guard let value = T(rawValue: raw) else { throw state.noCase(name, T.self, raw.databaseValue) }
            return value
        }
    }
}

extension RecordDecodingState {
    /// "'status' expected Status, found \"lost\"": a raw value that is no case of `type`.
    @usableFromInline
    func noCase(_ name: String, _ type: Any.Type, _ value: Value) -> FetchKitError {
        ValueDecoding.mismatch(name, type, value, entity: entity)
    }
}
