extension Record {
    /// The attribute, or the to-one relationship's attribute (`category.name`), a key path of this type names.
    ///
    /// An ``EntityRecord`` answers from its generated map; any other record from the property's name, through
    /// ``Record/attributeName(forProperty:)``.
    ///
    /// - Throws: ``FetchKitError/Code/unknownKey`` naming the key path when it stores nothing.
    static func storedKey(for keyPath: AnyKeyPath) throws(FetchKitError) -> String {
        if let entityType = Self.self as? any EntityRecord.Type {
            if let path = entityType.storedPath(for: keyPath) { return path }
        } else if let property = PredicateKeyPathName.property(of: keyPath, root: Self.self) {
            let name = attributeName(forProperty: property)
            if entity.attribute(named: name) != nil { return name }
        }
        throw FetchKitError.unknownKey("\(keyPath)", entity: entity.name, offset: nil)
    }
}
