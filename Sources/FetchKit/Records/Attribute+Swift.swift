/// Attributes described by the Swift type of the property that stores them (what `@Entity` writes).
///
/// ```swift
/// Attribute("title", for: String.self)
/// Attribute("done", for: Bool.self, default: false)
/// Attribute("status", for: Status.self)          // enum Status: String: a text attribute
/// ```
extension Attribute {
    /// An attribute storing `T`: its type, and optional when `T` is.
    public init<T: AttributeValue>(
        _ name: String, for type: T.Type, default defaultValue: T? = nil, column: String? = nil,
        indexed: Bool = false
    ) {
        self.init(
            name, T.attributeType, optional: T.isOptionalAttribute, default: defaultValue?.databaseValue,
            column: column, indexed: indexed)
    }

    /// An attribute storing the raw value of `T` (an enum with a `String` or integer raw value).
    public init<T: RawRepresentable>(
        _ name: String, for type: T.Type, default defaultValue: T? = nil, column: String? = nil,
        indexed: Bool = false
    ) where T.RawValue: AttributeValue {
        self.init(
            name, T.RawValue.attributeType, optional: T.RawValue.isOptionalAttribute,
            default: defaultValue?.rawValue.databaseValue, column: column, indexed: indexed)
    }

    /// An optional attribute storing the raw value of `T`.
    public init<T: RawRepresentable>(
        _ name: String, for type: T?.Type, default defaultValue: T? = nil, column: String? = nil,
        indexed: Bool = false
    ) where T.RawValue: AttributeValue {
        self.init(
            name, T.RawValue.attributeType, optional: true, default: defaultValue?.rawValue.databaseValue,
            column: column, indexed: indexed)
    }

    /// The optional foreign-key attribute of a to-one relationship to `Destination`: of the type of
    /// `Destination`'s primary key, read through ``EntityRecord/entityPrimaryKey`` (so two entities that
    /// refer to each other never build each other's entity).
    public init<Destination: EntityRecord>(
        foreignKeyTo destination: Destination.Type, named name: String, column: String? = nil,
        indexed: Bool = false
    ) {
        self.init(name, Destination.entityPrimaryKey.type, optional: true, column: column, indexed: indexed)
    }
}

extension PrimaryKey {
    /// The primary key `name`, of the attribute type that stores `T` (`Int64`, `Int`: integer; `String`,
    /// `UUID`: text; optional or not).
    public init<T: AttributeValue>(_ name: String, for type: T.Type) {
        self.init(name: name, type: T.attributeType)
    }
}
