/// The `Encoder` a record's `encode(to:)` writes one row through.
package final class RecordEncoder: Encoder {
    let entity: Entity
    /// The value of each attribute, by the attribute's position in the entity; nil when not encoded.
    private var values: [Value?]
    /// The first problem met where `Encoder` cannot throw (a nested container was asked for).
    private var failure: FetchKitError?

    package init(entity: Entity) {
        self.entity = entity
        self.values = Array(repeating: nil, count: entity.attributes.count)
    }

    package var codingPath: [any CodingKey] { [] }
    package var userInfo: [CodingUserInfoKey: Any] { [:] }

    package func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(RecordKeyedEncodingContainer<Key>(encoder: self))
    }

    package func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let error = FetchKitError.recordMapping(
            entity: entity.name, detail: "a record encodes keyed attributes, not a list")
        fail(error)
        return RejectingUnkeyedContainer(root: self, error: error)
    }

    package func singleValueContainer() -> any SingleValueEncodingContainer {
        fail(.recordMapping(entity: entity.name, detail: "a record encodes keyed attributes, not a single value"))
        return SingleValueEncoder(root: self, key: "")
    }

    /// Remembers the first failure; ``row()`` throws it.
    func fail(_ error: FetchKitError) {
        if failure == nil { failure = error }
    }

    /// Stores `value` for the attribute `name`, in the attribute's canonical case.
    func store(_ value: Value, for name: String) throws {
        guard let index = entity.attributes.firstIndex(where: { $0.name == name }) else {
            throw FetchKitError.unknownKey(name, entity: entity.name, offset: nil)
        }
        let type = entity.attributes[index].type
        // `accepts` first: `coerce` alone answers `.null` (Value is nil-literal expressible) for a misfit.
        guard type.accepts(value), let canonical = type.coerce(value) else {
            throw FetchKitError.recordMapping(
                entity: entity.name, detail: "\(SafeText.quoted(name)) is \(type) attribute, got \(value)")
        }
        values[index] = canonical
    }

    /// Stores an ``EntityRecord``'s `attributeValues()`, one per attribute, in the attribute's canonical case.
    private func store(_ given: [Value]) throws {
        guard given.count == entity.attributes.count else {
            throw FetchKitError.recordMapping(
                entity: entity.name,
                detail: "attributeValues() has \(given.count) values for \(entity.attributes.count) attributes")
        }
        for (index, attribute) in entity.attributes.enumerated() {
            let value = given[index]
            guard attribute.type.accepts(value), let canonical = attribute.type.coerce(value) else {
                throw FetchKitError.recordMapping(
                    entity: entity.name,
                    detail: "\(SafeText.quoted(attribute.name)) is \(attribute.type) attribute, got \(value)")
            }
            values[index] = canonical
        }
    }

    /// Encodes `record` (forgetting any record encoded before: one encoder may encode many records of its
    /// entity in turn).
    ///
    /// - Throws: what ``RecordCoding/encode(_:)`` throws.
    package func encode<R: Record>(_ record: R) throws {
        for index in values.indices { values[index] = nil }
        failure = nil
        if let record = record as? any EntityRecord { return try store(record.attributeValues()) }
        do {
            try record.encode(to: self)
        } catch let error as FetchKitError {
            throw error
        } catch {
            throw FetchKitError.recordMapping(entity: entity.name, detail: RecordCoding.describe(error))
        }
        if let failure { throw failure }
    }

    /// The value of each attribute the last record encoded, by position in the entity (`nil`: not encoded).
    package var attributeValues: [Value?] { values }

    /// The encoded attributes, in the entity's order.
    func row() throws -> Row {
        if let failure { throw failure }
        var pairs: [(String, Value)] = []
        pairs.reserveCapacity(values.count)
        for (attribute, value) in zip(entity.attributes, values) {
            if let value { pairs.append((attribute.name, value)) }
        }
        return Row(pairs)
    }
}
