extension FetchPredicate {
    /// The predicate checked against `entity`: every key path resolved, every value checked against
    /// its attribute's type and converted to it, comparisons written with the key path on the left.
    ///
    /// ```swift
    /// try FetchPredicate(format: "compleet == YES").validated(for: todo, in: schema)
    /// // throws: unknown key 'compleet' on entity Todo (offset 0)
    /// ```
    ///
    /// Key paths may cross to-one relationships (`category.name`); a to-many relationship only under
    /// `ANY`/`ALL`/`NONE` or for `@count`. A key path ending at a to-one relationship (`category == 3`)
    /// compares its foreign key; `SELF` compares the primary key. A comparison of two constants
    /// (`1 BETWEEN {0, 33}`, `YES == YES`) becomes `TRUEPREDICATE` or `FALSEPREDICATE` (see the folding rules
    /// in the Predicates article).
    ///
    /// - Throws: ``FetchKitError/Code/unknownKey``,
    ///   ``FetchKitError/Code/typeMismatch`` or ``FetchKitError/Code/invalidPredicate``,
    ///   with the offset of the key path involved; ``FetchKitError/Code/invalidValue`` for text containing NUL
    ///   (which no backend stores, so a write of it is refused the same way).
    public func validated(for entity: Entity, in schema: Schema) throws -> FetchPredicate {
        try validated(by: ComparisonValidator(schema: schema, entity: entity))
    }

    /// The predicate validated by `validator` (whose bindings say which `SUBQUERY` variables are in scope).
    func validated(by validator: ComparisonValidator) throws -> FetchPredicate {
        switch node {
        case .constant:
            return self
        case .and(let predicates):
            return .and(try predicates.map { try $0.validated(by: validator) })
        case .or(let predicates):
            return .or(try predicates.map { try $0.validated(by: validator) })
        case .not(let predicate):
            return .not(try predicate.validated(by: validator))
        case .comparison(let comparison):
            do {
                return try Self.validated(comparison, by: validator)
            } catch let error as FetchKitError {
                // A constant that does not compute has no position of its own: report its comparison's.
                throw error.located(at: comparison.lhs.offset ?? comparison.rhs.offset)
            }
        }
    }

    private static func validated(
        _ comparison: FetchPredicate.Comparison, by validator: ComparisonValidator
    ) throws -> FetchPredicate {
        var comparison = comparison
        comparison.lhs = try ConstantFolding.folded(comparison.lhs)
        comparison.rhs = try ConstantFolding.folded(comparison.rhs)
        if let truth = try ConstantFolding.fold(comparison) { return .constant(truth) }
        return .comparison(try validator.validate(comparison))
    }
}

extension AnyFetchRequest {
    /// The request checked against `schema`: its entity exists, its predicate is
    /// ``FetchPredicate/validated(for:in:)``, its sort keys, section key path and properties resolve
    /// (crossing to-one relationships only), and its limit and offset are not negative.
    ///
    /// - Throws: ``FetchKitError/Code/unknownEntity``, ``FetchKitError/Code/unknownKey``,
    ///   ``FetchKitError/Code/invalidPredicate`` or ``FetchKitError/Code/invalidValue``.
    public func validated(in schema: Schema) throws -> AnyFetchRequest {
        let entity = try schema.entity(named: entityName)
        var request = self
        request.predicate = try predicate.validated(for: entity, in: schema)
        for descriptor in sortDescriptors {
            _ = try schema.resolveToOne(descriptor.key, from: entity, role: "sort key")
        }
        if let section = sectionNameKeyPath {
            _ = try schema.resolveToOne(section, from: entity, role: "section key path")
        }
        for property in propertiesToFetch ?? [] {
            _ = try schema.resolveToOne(property, from: entity, role: "property to fetch")
        }
        _ = try prefetchedKeyPaths(of: entity, in: schema)
        if let limit = fetchLimit, limit < 0 {
            throw FetchKitError.invalidValue("fetchLimit must not be negative, got \(limit)")
        }
        if fetchOffset < 0 {
            throw FetchKitError.invalidValue("fetchOffset must not be negative, got \(fetchOffset)")
        }
        return request
    }
}

extension Schema {
    /// Resolves a key path that may cross only to-one relationships (sort keys, section key paths).
    package func resolveToOne(_ keyPath: String, from entity: Entity, role: String) throws -> ResolvedKeyPath {
        let path = try resolve(keyPath, from: entity)
        if let hop = path.hops.first(where: { !$0.isToOne }) {
            throw FetchKitError.invalidPredicate(
                "\(role) \(SafeText.quoted(keyPath)) crosses the to-many relationship "
                    + "\(SafeText.quoted(hop.relationship.name))",
                offset: nil)
        }
        return path
    }
}

extension FetchPredicate.Operand {
    /// Where the operand came from in a format string, when known.
    public var offset: Int? {
        switch node {
        case .key(let key), .count(let key): return key.offset
        case .variable(_, let offset): return offset
        case .aggregate(_, let collection, _): return collection.offset
        case .subquery(let subquery): return subquery.collection.offset
        case .arithmetic(let lhs, _, let rhs): return lhs.offset ?? rhs.offset
        case .elements(let elements): return elements.lazy.compactMap(\.offset).first
        case .value, .list, .object: return nil
        }
    }
}

extension FetchPredicate.Operator {
    /// The operator with its operands swapped (`<` becomes `>`), or `nil` when it has no mirror.
    var flipped: FetchPredicate.Operator? {
        switch self {
        case .equal, .notEqual: return self
        case .lessThan: return .greaterThan
        case .lessThanOrEqual: return .greaterThanOrEqual
        case .greaterThan: return .lessThan
        case .greaterThanOrEqual: return .lessThanOrEqual
        case .in, .between, .beginsWith, .endsWith, .contains, .like, .matches: return nil
        }
    }

    /// `BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `LIKE` or `MATCHES`.
    var isStringOperator: Bool {
        switch self {
        case .beginsWith, .endsWith, .contains, .like, .matches: return true
        default: return false
        }
    }
}

extension FetchPredicate.Quantifier {
    /// `ANY`, `ALL`, `NONE` (empty for no quantifier).
    package var notation: String {
        switch self {
        case .one: return ""
        case .any: return "ANY"
        case .all: return "ALL"
        case .none: return "NONE"
        }
    }
}

extension FetchPredicate.StringOptions {
    /// `[c]`, `[d]` or `[cd]`.
    package var notation: String {
        "[" + (contains(.caseInsensitive) ? "c" : "") + (contains(.diacriticInsensitive) ? "d" : "") + "]"
    }
}
