extension ToOne {
    /// Reads the relationship from `container`: the nested record under `recordKey` when present,
    /// otherwise the key under `keyKey` (of the type of the destination's primary key), otherwise none.
    public init<Key: CodingKey>(from container: KeyedDecodingContainer<Key>, record recordKey: Key, key keyKey: Key)
        throws
    {
        if let record = try container.decodeIfPresent(Destination.self, forKey: recordKey) {
            self.init(record)
        } else if Destination.entityPrimaryKey.type == .text {
            self.init(key: try container.decodeIfPresent(String.self, forKey: keyKey).map(Value.text) ?? .null)
        } else {
            self.init(key: try container.decodeIfPresent(Int64.self, forKey: keyKey).map(Value.integer) ?? .null)
        }
    }

    /// Writes the relationship into `container`: the record under `recordKey` when loaded, and the key
    /// under `keyKey` when there is one.
    public func encode<Key: CodingKey>(
        to container: inout KeyedEncodingContainer<Key>, record recordKey: Key, key keyKey: Key
    )
        throws
    {
        try container.encodeIfPresent(record, forKey: recordKey)
        if !key.isNull { try container.encode(key, forKey: keyKey) }
    }
}
