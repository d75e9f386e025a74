extension RecordRow {
    /// The value of the entity's attribute at `position` (the primary key is 0, then the attributes in the
    /// entity's order), named `name`, as `T`: how the `@Entity` macro's `init(row:)` reads a record.
    ///
    /// The column is found by position; the name only labels errors.
    ///
    /// ```swift
    /// id = try row.column(0, "id", as: Int64?.self)
    /// title = try row.column(1, "title", as: String.self)
    /// ```
    ///
    /// - Throws: ``FetchKitError/Code/recordMapping`` naming the attribute when the row has no column for it
    ///   or holds `NULL` (unless `T` is optional), or its value does not convert to `T`.
    /// - Complexity: O(1): each attribute's column is found once per fetch.
    @inlinable
    public func column<T: ValueConvertible>(_ position: Int, _ name: String, as type: T.Type = T.self) throws -> T {
        try state._withUnsafeGuaranteedRef { try $0.read(position: position, name, as: T.self) }
    }

    /// The raw value of the entity's attribute at `position` as an enum case (or other raw-representable).
    ///
    /// - Throws: ``FetchKitError/Code/recordMapping`` naming the attribute when its value is no case's raw value.
    @inlinable
    public func column<T: RawRepresentable>(_ position: Int, _ name: String, as type: T.Type = T.self) throws -> T
    where T.RawValue: ValueConvertible {
        let raw = try column(position, name, as: T.RawValue.self)
        guard let value = T(rawValue: raw) else { throw rawValueMismatch(name, raw, T.self) }
        return value
    }

    /// The raw value of the entity's optional attribute at `position` as an enum case; `NULL` is `nil`.
    ///
    /// - Throws: ``FetchKitError/Code/recordMapping`` naming the attribute when its value is no case's raw value.
    @inlinable
    public func column<T: RawRepresentable>(_ position: Int, _ name: String, as type: T?.Type = T?.self) throws -> T?
    where T.RawValue: ValueConvertible {
        guard let raw = try column(position, name, as: T.RawValue?.self) else { return nil }
        guard let value = T(rawValue: raw) else { throw rawValueMismatch(name, raw, T.self) }
        return value
    }

    /// The error for a raw value that names no case: "'status' expected Status, found "lost"".
    @usableFromInline
    func rawValueMismatch<Raw: ValueConvertible>(_ name: String, _ raw: Raw, _ type: Any.Type) -> FetchKitError {
        state._withUnsafeGuaranteedRef { state in
            ValueDecoding.mismatch(name, type, raw.databaseValue, entity: state.entity)
        }
    }
}
