extension FetchPredicate {
    /// The predicate checked against `entity`: every key path resolved, every value checked against
    /// its attribute's type and converted to it, comparisons written with the key path on the left.
    ///
    /// ```swift
    /// try FetchPredicate(format: "compleet == YES").validated(for: task, in: schema)
    /// // throws: unknown key 'compleet' on entity Task (offset 0)
    /// ```
    ///
    /// Key paths may cross to-one relationships (`category.name`); a to-many relationship only under
    /// `ANY`/`ALL`/`NONE` or for `@count`. A key path ending at a to-one relationship (`category == 3`)
    /// compares its foreign key; `SELF` compares the primary key. A comparison of two constants
    /// (`1 BETWEEN {0, 33}`, `YES == YES`) becomes `TRUEPREDICATE` or `FALSEPREDICATE` (see the folding rules
    /// in the README).
    ///
    /// - Throws: ``FetchKitError/unknownKey(_:entity:offset:)``,
    ///   ``FetchKitError/typeMismatch(key:expected:got:offset:)`` or ``FetchKitError/invalidPredicate(_:offset:)``,
    ///   with the offset of the key path involved.
    public func validated(for entity: Entity, in schema: Schema) throws -> FetchPredicate {
        switch self {
        case .constant:
            return self
        case .and(let predicates):
            return .and(try predicates.map { try $0.validated(for: entity, in: schema) })
        case .or(let predicates):
            return .or(try predicates.map { try $0.validated(for: entity, in: schema) })
        case .not(let predicate):
            return .not(try predicate.validated(for: entity, in: schema))
        case .comparison(let comparison):
            if let truth = try ConstantFolding.fold(comparison) { return .constant(truth) }
            return .comparison(try ComparisonValidator(schema: schema, entity: entity).validate(comparison))
        }
    }
}

/// Checks one comparison; see ``FetchPredicate/validated(for:in:)``.
struct ComparisonValidator {
    let schema: Schema
    let entity: Entity

    /// What the left side of a comparison denotes once resolved.
    struct Subject {
        /// The name used in messages: `category.name`, `SELF`, `tasks.@count`.
        var name: String
        var type: AttributeType
        var offset: Int?
    }

    func validate(_ comparison: FetchPredicate.Comparison) throws -> FetchPredicate.Comparison {
        var comparison = comparison
        try rejectVariable(comparison.lhs)
        try rejectVariable(comparison.rhs)
        if !comparison.lhs.isSubject && comparison.rhs.isSubject {
            guard let flipped = comparison.op.flipped else {
                throw FetchKitError.invalidPredicate(
                    "\(comparison.op.rawValue) needs a key path on its left", offset: comparison.rhs.offset)
            }
            comparison = FetchPredicate.Comparison(
                comparison.rhs, flipped, comparison.lhs, options: comparison.options,
                quantifier: comparison.quantifier)
        }
        let subject = try checkSubject(comparison.lhs, quantifier: comparison.quantifier)
        if !comparison.options.isEmpty && subject.type != .text {
            throw FetchKitError.invalidPredicate(
                "\(comparison.options.notation) applies to text; '\(subject.name)' is \(subject.type)",
                offset: subject.offset)
        }
        comparison.rhs = try checkRight(comparison.rhs, of: comparison.op, against: subject)
        return comparison
    }

    private func rejectVariable(_ operand: FetchPredicate.Operand) throws {
        if case .variable(let name, let offset) = operand {
            throw FetchKitError.invalidPredicate("$\(name) has no value", offset: offset)
        }
    }

    // MARK: - Left side

    private func checkSubject(
        _ operand: FetchPredicate.Operand, quantifier: FetchPredicate.Quantifier
    ) throws -> Subject {
        switch operand {
        case .key(let key):
            let path = try schema.resolve(key, from: entity)
            try checkQuantifier(quantifier, on: path)
            return Subject(name: key.description, type: path.attribute.type, offset: key.offset)
        case .count(let key):
            let path = try schema.resolve(key, from: entity)
            let name = key.description + ".@count"
            guard let relationship = path.endingRelationship, !relationship.isToOne,
                path.firstToManyHop == path.hops.count - 1
            else {
                throw FetchKitError.invalidPredicate(
                    "@count needs a to-many relationship; '\(key)' is not one", offset: key.offset)
            }
            guard quantifier == .one else {
                throw FetchKitError.invalidPredicate(
                    "\(quantifier.notation) cannot quantify '\(name)'", offset: key.offset)
            }
            return Subject(name: name, type: .integer, offset: key.offset)
        case .object:
            guard quantifier == .one else {
                throw FetchKitError.invalidPredicate("\(quantifier.notation) cannot quantify SELF", offset: nil)
            }
            return Subject(name: "SELF", type: entity.primaryKey.type, offset: nil)
        case .value, .list, .variable:
            throw FetchKitError.invalidPredicate(
                "a comparison needs a key path, SELF or @count on one side", offset: operand.offset)
        }
    }

    private func checkQuantifier(_ quantifier: FetchPredicate.Quantifier, on path: ResolvedKeyPath) throws {
        let toManyHops = path.hops.filter { !$0.isToOne }
        if toManyHops.count > 1 {
            throw FetchKitError.invalidPredicate(
                "'\(path.keyPath)' crosses more than one to-many relationship", offset: path.keyPath.offset)
        }
        if let hop = toManyHops.first, quantifier == .one {
            throw FetchKitError.invalidPredicate(
                "'\(path.keyPath)' crosses the to-many relationship '\(hop.relationship.name)': "
                    + "use ANY, ALL or NONE, or @count",
                offset: path.keyPath.offset)
        }
        if toManyHops.isEmpty && quantifier != .one {
            throw FetchKitError.invalidPredicate(
                "\(quantifier.notation) needs a key path that crosses a to-many relationship; "
                    + "'\(path.keyPath)' does not",
                offset: path.keyPath.offset)
        }
    }

    // MARK: - Right side

    private func checkRight(
        _ rhs: FetchPredicate.Operand, of op: FetchPredicate.Operator, against subject: Subject
    ) throws -> FetchPredicate.Operand {
        switch op {
        case .in:
            guard case .list(let values) = rhs else {
                throw FetchKitError.invalidPredicate("IN needs a list on its right", offset: subject.offset)
            }
            return .list(try values.map { try coerce($0, to: subject) })
        case .between:
            guard case .list(let values) = rhs, values.count == 2 else {
                throw FetchKitError.invalidPredicate(
                    "BETWEEN needs a list of two values on its right", offset: subject.offset)
            }
            return .list(try values.map { try coerce($0, to: subject) })
        case .beginsWith, .endsWith, .contains, .like, .matches:
            guard subject.type == .text else {
                throw FetchKitError.invalidPredicate(
                    "\(op.rawValue) applies to text; '\(subject.name)' is \(subject.type)", offset: subject.offset)
            }
            switch rhs {
            case .value(let value):
                return .value(try coerce(value, to: subject))
            case .key(let key):
                try checkKey(key, comparableTo: subject)
                return rhs
            default:
                throw FetchKitError.invalidPredicate(
                    "\(op.rawValue) needs a text or a key path on its right", offset: subject.offset)
            }
        case .equal, .notEqual, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            switch rhs {
            case .value(let value):
                return .value(try coerce(value, to: subject))
            case .key(let key):
                try checkKey(key, comparableTo: subject)
                return rhs
            case .count(let key):
                let right = try checkSubject(.count(key), quantifier: .one)
                try checkComparable(right, with: subject)
                return rhs
            case .object:
                try checkComparable(Subject(name: "SELF", type: entity.primaryKey.type, offset: nil), with: subject)
                return rhs
            case .list:
                throw FetchKitError.invalidPredicate(
                    "a list needs IN or BETWEEN, not \(op.rawValue)", offset: subject.offset)
            case .variable(let name, let offset):
                throw FetchKitError.invalidPredicate("$\(name) has no value", offset: offset)
            }
        }
    }

    private func checkKey(_ key: FetchPredicate.Key, comparableTo subject: Subject) throws {
        let path = try schema.resolve(key, from: entity)
        if let hop = path.hops.first(where: { !$0.isToOne }) {
            throw FetchKitError.invalidPredicate(
                "'\(key)' crosses the to-many relationship '\(hop.relationship.name)'; "
                    + "only the left side of a comparison may be quantified",
                offset: key.offset)
        }
        try checkComparable(Subject(name: key.description, type: path.attribute.type, offset: key.offset),
                            with: subject)
    }

    private func checkComparable(_ other: Subject, with subject: Subject) throws {
        let numeric: Set<AttributeType> = [.integer, .double]
        guard other.type == subject.type || (numeric.contains(other.type) && numeric.contains(subject.type)) else {
            throw FetchKitError.typeMismatch(
                key: subject.name, expected: subject.type, got: "'\(other.name)' (\(other.type))",
                offset: subject.offset)
        }
    }

    /// `value` in the subject's type; integers and doubles compare with each other.
    private func coerce(_ value: Value, to subject: Subject) throws -> Value {
        switch (subject.type, value) {
        case (.integer, .double(let number)) where !number.isNaN:
            return Int64(exactly: number).map(Value.integer) ?? value
        default:
            guard let coerced = subject.type.coerce(value) else {
                throw FetchKitError.typeMismatch(
                    key: subject.name, expected: subject.type, got: value.description, offset: subject.offset)
            }
            return coerced
        }
    }
}

extension FetchRequest {
    /// The request checked against `schema`: its entity exists, its predicate is
    /// ``FetchPredicate/validated(for:in:)``, its sort keys, section key path and properties resolve
    /// (crossing to-one relationships only), and its limit and offset are not negative.
    ///
    /// - Throws: ``FetchKitError/unknownEntity(_:)``, ``FetchKitError/unknownKey(_:entity:offset:)``,
    ///   ``FetchKitError/invalidPredicate(_:offset:)`` or ``FetchKitError/invalidValue(_:)``.
    public func validated(in schema: Schema) throws -> FetchRequest {
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
    func resolveToOne(_ keyPath: String, from entity: Entity, role: String) throws -> ResolvedKeyPath {
        let path = try resolve(keyPath, from: entity)
        if let hop = path.hops.first(where: { !$0.isToOne }) {
            throw FetchKitError.invalidPredicate(
                "\(role) '\(keyPath)' crosses the to-many relationship '\(hop.relationship.name)'", offset: nil)
        }
        return path
    }
}

extension FetchPredicate.Operand {
    /// Whether the operand names something of the evaluated object (a key path, `@count`, `SELF`).
    var isSubject: Bool {
        switch self {
        case .key, .count, .object: return true
        case .value, .list, .variable: return false
        }
    }

    /// Where the operand came from in a format string, when known.
    var offset: Int? {
        switch self {
        case .key(let key), .count(let key): return key.offset
        case .variable(_, let offset): return offset
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
}

extension FetchPredicate.Quantifier {
    /// `ANY`, `ALL`, `NONE` (empty for no quantifier).
    var notation: String {
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
    var notation: String {
        "[" + (contains(.caseInsensitive) ? "c" : "") + (contains(.diacriticInsensitive) ? "d" : "") + "]"
    }
}
