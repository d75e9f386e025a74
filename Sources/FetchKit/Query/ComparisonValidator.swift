/// Checks one comparison against a schema; see ``FetchPredicate/validated(for:in:)``.
///
/// Every operand is typed (a key path's attribute, `@count`, an aggregate, arithmetic, a constant), values
/// are converted to the type they are compared with, and a constant on the left is moved to the right when
/// the operator has a mirror (`3 < priority` becomes `priority > 3`).
struct ComparisonValidator {
    let schema: Schema
    /// The entity whose objects are evaluated.
    let entity: Entity
    /// The entity each enclosing `SUBQUERY` variable stands for, by name.
    var bindings: [String: Entity] = [:]

    /// What an operand denotes once resolved.
    struct Subject {
        /// The name used in messages: `category.name`, `SELF`, `todos.@count`.
        var name: String
        var type: AttributeType
        var offset: Int?
    }

    func validate(_ comparison: FetchPredicate.Comparison) throws -> FetchPredicate.Comparison {
        var comparison = comparison
        try rejectUnboundVariables(comparison.lhs)
        try rejectUnboundVariables(comparison.rhs)
        if let membership = try relationshipMembership(comparison) { comparison = membership }
        guard readsObject(comparison.lhs) || readsObject(comparison.rhs) else {
            throw FetchKitError.invalidPredicate(
                "a comparison needs a key path, SELF or @count on one side", offset: comparison.lhs.offset)
        }
        if !isSubject(comparison.lhs) && isSubject(comparison.rhs) {
            if let flipped = comparison.op.flipped {
                comparison = FetchPredicate.Comparison(
                    comparison.rhs, flipped, comparison.lhs, options: comparison.options,
                    quantifier: comparison.quantifier)
            } else if comparison.op.isStringOperator {
                return try validateConstantHaystack(comparison)
            }
        }
        let (lhs, subject) = try checkSubject(comparison.lhs, quantifier: comparison.quantifier)
        comparison.lhs = lhs
        if !comparison.options.isEmpty && subject.type != .text {
            throw FetchKitError.invalidPredicate(
                "\(comparison.options.notation) applies to text; \(SafeText.quoted(subject.name)) is \(subject.type)",
                offset: subject.offset)
        }
        comparison.rhs = try checkRight(comparison.rhs, of: comparison.op, against: subject)
        return comparison
    }

    /// `%@ IN tags`, Core Data's idiom for "this object is among the related ones": `ANY tags == %@`.
    private func relationshipMembership(
        _ comparison: FetchPredicate.Comparison
    ) throws -> FetchPredicate.Comparison? {
        guard comparison.op == .in, comparison.quantifier == .one, comparison.options.isEmpty,
            case .value = comparison.lhs.node, case .key(let key) = comparison.rhs.node
        else { return nil }
        let path = try resolve(key)
        guard let relationship = path.endingRelationship, !relationship.isToOne else {
            throw FetchKitError.invalidPredicate(
                "a constant IN a key path needs a to-many relationship on the right; \(SafeText.quoted(key)) is "
                    + "not one",
                offset: key.offset)
        }
        return FetchPredicate.Comparison(comparison.rhs, .equal, comparison.lhs, quantifier: .any)
    }

    /// `'abc' BEGINSWITH name`: a constant text searched for the key path's value.
    private func validateConstantHaystack(
        _ comparison: FetchPredicate.Comparison
    ) throws -> FetchPredicate.Comparison {
        guard comparison.quantifier == .one, comparison.op != .like, comparison.op != .matches,
            case .value(let value) = comparison.lhs.node, case .key(let key) = comparison.rhs.node
        else {
            throw FetchKitError.invalidPredicate(
                "\(comparison.op.rawValue) needs a key path on its left, or a text on its left and a key path "
                    + "on its right",
                offset: comparison.rhs.offset)
        }
        let (_, subject) = try checkSubject(.key(key), quantifier: .one)
        guard subject.type == .text else {
            throw FetchKitError.invalidPredicate(
                "\(comparison.op.rawValue) applies to text; \(SafeText.quoted(subject.name)) is \(subject.type)",
                offset: key.offset)
        }
        var comparison = comparison
        comparison.lhs = .value(try coerce(value, to: subject))
        return comparison
    }

    private func rejectUnboundVariables(_ operand: FetchPredicate.Operand) throws {
        switch operand.node {
        case .variable(let name, let offset) where bindings[name] == nil:
            throw FetchKitError.invalidPredicate("$\(name) has no value", offset: offset)
        case .elements(let elements):
            for element in elements { try rejectUnboundVariables(element) }
        case .arithmetic(let lhs, _, let rhs):
            try rejectUnboundVariables(lhs)
            try rejectUnboundVariables(rhs)
        default:
            return
        }
    }

    /// Whether the operand reads the evaluated object (a key path, `@count`, `SELF`, a subquery variable...).
    func isSubject(_ operand: FetchPredicate.Operand) -> Bool {
        switch operand.node {
        case .key, .count, .object, .aggregate, .subquery: return true
        case .variable(let name, _): return bindings[name] != nil
        case .arithmetic(let lhs, _, let rhs): return isSubject(lhs) || isSubject(rhs)
        case .value, .list, .elements: return false
        }
    }

    /// Whether the operand, or an element of a list literal, reads the evaluated object.
    private func readsObject(_ operand: FetchPredicate.Operand) -> Bool {
        if case .elements(let elements) = operand.node { return elements.contains(where: isSubject) }
        return isSubject(operand)
    }

    /// Resolves a key path from the evaluated entity, or from a subquery variable's (`$t.priority`).
    func resolve(_ key: FetchPredicate.Key) throws -> ResolvedKeyPath {
        guard let variable = key.variable else { return try schema.resolve(key, from: entity) }
        guard let bound = bindings[variable] else {
            throw FetchKitError.invalidPredicate(
                "$\(variable) in \(SafeText.quoted(key)) is not the variable of an enclosing SUBQUERY",
                offset: key.offset)
        }
        return try schema.resolve(key.droppingVariable, from: bound)
    }

    // MARK: - Left side

    private func checkSubject(
        _ operand: FetchPredicate.Operand, quantifier: FetchPredicate.Quantifier
    ) throws -> (FetchPredicate.Operand, Subject) {
        if case .key(let key) = operand.node {
            let path = try resolve(key)
            try checkQuantifier(quantifier, on: path, key: key)
            return (operand, Subject(name: key.description, type: path.attribute.type, offset: key.offset))
        }
        guard quantifier == .one else {
            throw FetchKitError.invalidPredicate(
                "\(quantifier.notation) needs a key path that crosses a to-many relationship on its left",
                offset: operand.offset)
        }
        switch operand.node {
        case .list, .elements:
            throw FetchKitError.invalidPredicate(
                "a comparison needs a key path, SELF or @count on one side", offset: operand.offset)
        default:
            let (checked, subject) = try checkScalar(operand)
            guard let subject else {
                throw FetchKitError.invalidPredicate(
                    "a comparison needs a key path, SELF or @count on one side", offset: operand.offset)
            }
            return (checked, subject)
        }
    }

    private func checkQuantifier(
        _ quantifier: FetchPredicate.Quantifier, on path: ResolvedKeyPath, key: FetchPredicate.Key
    ) throws {
        let toManyHops = path.hops.filter { !$0.isToOne }
        if toManyHops.count > 1 {
            throw FetchKitError.invalidPredicate(
                "\(SafeText.quoted(key)) crosses more than one to-many relationship", offset: key.offset)
        }
        if let hop = toManyHops.first, quantifier == .one {
            throw FetchKitError.invalidPredicate(
                "\(SafeText.quoted(key)) crosses the to-many relationship "
                    + "\(SafeText.quoted(hop.relationship.name)): use ANY, ALL or NONE, "
                    + "@count, an aggregate such as @sum, or SUBQUERY",
                offset: key.offset)
        }
        if toManyHops.isEmpty && quantifier != .one {
            throw FetchKitError.invalidPredicate(
                "\(quantifier.notation) needs a key path that crosses a to-many relationship; "
                    + "\(SafeText.quoted(key)) does not",
                offset: key.offset)
        }
    }

    // MARK: - Right side

    private func checkRight(
        _ rhs: FetchPredicate.Operand, of op: FetchPredicate.Operator, against subject: Subject
    ) throws -> FetchPredicate.Operand {
        switch op {
        case .in, .between:
            let elements: [FetchPredicate.Operand]
            switch rhs.node {
            case .list(let values): elements = values.map(FetchPredicate.Operand.value)
            case .elements(let operands): elements = operands
            default:
                throw FetchKitError.invalidPredicate(
                    op == .in ? "IN needs a list on its right" : "BETWEEN needs a list of two values on its right",
                    offset: subject.offset)
            }
            if op == .between && elements.count != 2 {
                throw FetchKitError.invalidPredicate(
                    "BETWEEN needs a list of two values on its right", offset: subject.offset)
            }
            return .collapsing(try elements.map { try checkComparable($0, with: subject) })
        case .beginsWith, .endsWith, .contains, .like, .matches:
            guard subject.type == .text else {
                throw FetchKitError.invalidPredicate(
                    "\(op.rawValue) applies to text; \(SafeText.quoted(subject.name)) is \(subject.type)",
                    offset: subject.offset)
            }
            switch rhs.node {
            case .value, .key:
                return try checkComparable(rhs, with: subject)
            default:
                throw FetchKitError.invalidPredicate(
                    "\(op.rawValue) needs a text or a key path on its right", offset: subject.offset)
            }
        case .equal, .notEqual, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            switch rhs.node {
            case .list, .elements:
                throw FetchKitError.invalidPredicate(
                    "a list needs IN or BETWEEN, not \(op.rawValue)", offset: subject.offset)
            default:
                return try checkComparable(rhs, with: subject)
            }
        }
    }

    /// The operand checked as the right side of a comparison with `subject`: a constant converted to the
    /// subject's type, anything else typed and checked to be comparable.
    private func checkComparable(
        _ operand: FetchPredicate.Operand, with subject: Subject
    ) throws -> FetchPredicate.Operand {
        if case .value(let value) = operand.node { return .value(try coerce(value, to: subject)) }
        if case .key(let key) = operand.node, let hop = try resolve(key).hops.first(where: { !$0.isToOne }) {
            throw FetchKitError.invalidPredicate(
                "\(SafeText.quoted(key)) crosses the to-many relationship \(SafeText.quoted(hop.relationship.name)); "
                    + "only the left side of a comparison may be quantified",
                offset: key.offset)
        }
        let (checked, other) = try checkScalar(operand)
        if let other { try checkComparable(other, with: subject) }
        return checked
    }

    func checkComparable(_ other: Subject, with subject: Subject) throws {
        let numeric: Set<AttributeType> = [.integer, .double]
        guard other.type == subject.type || (numeric.contains(other.type) && numeric.contains(subject.type)) else {
            throw FetchKitError.typeMismatch(
                key: subject.name, expected: subject.type, got: "\(SafeText.quoted(other.name)) (\(other.type))",
                offset: subject.offset)
        }
    }

    /// `value` in the subject's type; integers and doubles compare with each other.
    ///
    /// - Throws: ``FetchKitError/Code/typeMismatch`` for a value of another type;
    ///   ``FetchKitError/Code/invalidValue`` for text containing NUL.
    func coerce(_ value: Value, to subject: Subject) throws -> Value {
        if case .date(let date) = value, !date.isStorable {
            throw FetchKitError.invalidPredicate(
                "a date \(date.timeIntervalSince1970) seconds from 1970 cannot be compared "
                    + "with \(SafeText.quoted(subject.name)) (dates are stored within about 292,000 years of 1970)",
                offset: subject.offset)
        }
        switch (subject.type, value) {
        case (.integer, .double(let number)) where !number.isNaN:
            return Int64(exactly: number).map(Value.integer) ?? value
        default:
            guard let coerced = subject.type.coerce(value) else {
                throw FetchKitError.typeMismatch(
                    key: subject.name, expected: subject.type, got: value.description, offset: subject.offset)
            }
            if case .text(let text) = coerced, text.unicodeScalars.contains("\0") {
                // Refused as a write of it is, on every backend: no stored text holds NUL, and PostgreSQL
                // refuses it in a parameter.
                throw FetchKitError(
                    .invalidValue,
                    message: "'\(subject.name)' of \(entity.name) cannot be compared with text containing NUL "
                        + "(no text containing NUL can be stored)",
                    keyPath: subject.name, entity: entity.name, offset: subject.offset)
            }
            return coerced
        }
    }
}
