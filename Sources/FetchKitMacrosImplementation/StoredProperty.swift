import SwiftDiagnostics
import SwiftSyntax

/// A stored property of an `@Entity` struct, as the expansion uses it.
struct StoredProperty {
    /// How the property is stored.
    enum Kind {
        /// The primary key.
        case primaryKey
        /// An attribute.
        case attribute
        /// A to-one relationship to `destination`, stored in the foreign key `<name>ID`.
        case toOne(destination: String)
        /// A to-many relationship to `destination`, the inverse of its to-one relationship `inverse`.
        case toMany(destination: String, inverse: String)
        /// Not stored.
        case transient
    }

    var name: String
    var kind: Kind
    /// The declared (or literal's) type, as written.
    var type: String
    /// The wrapped type when `type` is spelled optional.
    var wrappedType: String?
    /// The literal default value an attribute's default takes.
    var literalDefault: String?
    var column: String?
    var isIndexed = false

    /// The foreign-key attribute of a to-one relationship.
    var foreignKey: String { name + "ID" }
}

extension StoredProperty {
    /// The stored properties `declaration` declares (none for static and computed properties), and the
    /// problems found.
    static func parse(_ declaration: VariableDeclSyntax, problems: inout [Problem]) -> [StoredProperty] {
        if declaration.modifiers.contains(where: { ["static", "class"].contains($0.name.text) }) { return [] }
        let markers = Markers(declaration, problems: &problems)
        var properties: [StoredProperty] = []
        let bindings = Array(declaration.bindings)
        for (index, binding) in bindings.enumerated() {
            guard isStored(binding), let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else {
                continue
            }
            // `var low, high: Int`: a binding without a type or a value takes the type of the next one with a type.
            var binding = binding
            if binding.typeAnnotation == nil, binding.initializer == nil {
                binding.typeAnnotation = bindings[(index + 1)...].lazy.compactMap(\.typeAnnotation).first
            }
            let name = identifier.identifier.trimmedDescription
            if let lazy = declaration.modifiers.first(where: { $0.name.text == "lazy" }) {
                problems.append(Problem(lazy, .lazyProperty(property: name), fixIts: [removingLazy(declaration)]))
                continue
            }
            if let property = parse(binding, name: name, in: declaration, markers: markers, problems: &problems) {
                properties.append(property)
            }
        }
        return properties
    }

    /// Whether `binding` is stored: no accessors, or only observers.
    private static func isStored(_ binding: PatternBindingSyntax) -> Bool {
        switch binding.accessorBlock?.accessors {
        case nil: return true
        case .getter: return false
        case .accessors(let accessors):
            return accessors.allSatisfy { ["willSet", "didSet"].contains($0.accessorSpecifier.text) }
        }
    }

    private static func parse(
        _ binding: PatternBindingSyntax, name: String, in declaration: VariableDeclSyntax, markers: Markers,
        problems: inout [Problem]
    ) -> StoredProperty? {
        let initializer = binding.initializer?.value
        if markers.isTransient {
            guard initializer != nil else {
                problems.append(Problem(binding, .transientWithoutDefault(property: name)))
                return nil
            }
            return StoredProperty(name: name, kind: .transient, type: "")
        }
        guard let type = binding.typeAnnotation?.type ?? literalType(of: initializer) else {
            problems.append(Problem(binding.pattern, .missingTypeAnnotation(property: name)))
            return nil
        }
        var property = StoredProperty(
            name: name, kind: .attribute, type: type.trimmedDescription,
            wrappedType: TypeShape.wrapped(type)?.trimmedDescription, column: markers.column,
            isIndexed: markers.isIndexed)
        if markers.isToOne {
            guard let destination = TypeShape.wrapped(type) else {
                let fix = FixIt.replace(
                    message: EntityFixIt(message: "make the type optional"), oldNode: type,
                    newNode: OptionalTypeSyntax(wrappedType: type.trimmed))
                problems.append(Problem(type, .toOneNotOptional(property: name), fixIts: [fix]))
                return nil
            }
            property.kind = .toOne(destination: destination.trimmedDescription)
            return property
        }
        if let inverse = markers.inverse {
            guard let element = TypeShape.element(type), TypeShape.wrapped(element) == nil else {
                problems.append(Problem(type, .toManyNotArray(property: name)))
                return nil
            }
            guard initializer != nil else {
                problems.append(Problem(binding, .toManyWithoutDefault(property: name)))
                return nil
            }
            guard let inverse else { return nil }
            property.kind = .toMany(destination: element.trimmedDescription, inverse: inverse)
            return property
        }
        if let kind = TypeShape.unsupportedKind(type) {
            problems.append(Problem(type, .unsupportedType(property: name, kind: kind)))
            return nil
        }
        if let initializer, declaration.bindingSpecifier.text == "let" {
            let fix = FixIt.replace(
                message: EntityFixIt(message: "replace 'let' with 'var'"), oldNode: declaration.bindingSpecifier,
                newNode: TokenSyntax.keyword(.var).with(\.trailingTrivia, declaration.bindingSpecifier.trailingTrivia))
            problems.append(Problem(initializer, .letWithDefault(property: name), fixIts: [fix]))
            return nil
        }
        if markers.isPrimaryKey { property.kind = .primaryKey }
        if let initializer, TypeShape.literalType(initializer) != nil || isConstantMember(initializer) {
            property.literalDefault = initializer.trimmedDescription
        }
        return property
    }

    /// Whether a default is a constant named by a member, `.open` or `Status.open` (an enum case, a static
    /// constant), which the column's default can take as well; a call such as `UUID()` or `Date()` is not
    /// (each record gets a value of its own).
    private static func isConstantMember(_ expression: ExprSyntax) -> Bool {
        guard let member = expression.as(MemberAccessExprSyntax.self) else { return false }
        guard let base = member.base else { return true }
        guard let type = base.as(DeclReferenceExprSyntax.self)?.baseName.text, let first = type.first else {
            return false
        }
        return first.isUppercase
    }

    private static func literalType(of initializer: ExprSyntax?) -> TypeSyntax? {
        guard let initializer, let name = TypeShape.literalType(initializer) else { return nil }
        return TypeSyntax(IdentifierTypeSyntax(name: .identifier(name)))
    }

    private static func removingLazy(_ declaration: VariableDeclSyntax) -> FixIt {
        FixIt.replace(
            message: EntityFixIt(message: "remove 'lazy'"), oldNode: declaration.modifiers,
            newNode: DeclModifierListSyntax(Array(declaration.modifiers).filter { $0.name.text != "lazy" }))
    }
}

/// The `@PrimaryKey`, `@Attribute`, `@Transient` and `@Relationship` markers of a property declaration.
struct Markers {
    var isPrimaryKey = false
    var isTransient = false
    var column: String?
    var isIndexed = false
    /// Whether the property is a to-one `@Relationship` (whose `column:` is ``column``).
    var isToOne = false
    /// The inverse of a to-many `@Relationship(inverse:)`: `.some(nil)` when it is no single property.
    var inverse: String??

    init(_ declaration: VariableDeclSyntax, problems: inout [Problem]) {
        for element in declaration.attributes {
            guard let attribute = element.as(AttributeSyntax.self) else { continue }
            let arguments = MacroArguments(attribute)
            switch Self.name(of: attribute) {
            case "PrimaryKey":
                isPrimaryKey = true
                column = arguments.string("column", problems: &problems) ?? column
            case "Attribute":
                column = arguments.string("column", problems: &problems) ?? column
                isIndexed = arguments.bool("indexed", problems: &problems)
            case "Transient":
                isTransient = true
            case "Relationship":
                if let keyPath = arguments.argument("inverse") {
                    inverse = .some(Self.property(keyPath.expression))
                    if inverse == .some(nil) { problems.append(Problem(keyPath.expression, .inverseNotAProperty)) }
                } else {
                    isToOne = true
                    column = arguments.string("column", problems: &problems) ?? column
                }
            default:
                continue
            }
        }
    }

    /// `PrimaryKey` for `@PrimaryKey` and `@FetchKitMacros.PrimaryKey`.
    static func name(of attribute: AttributeSyntax) -> String? {
        if let member = attribute.attributeName.as(MemberTypeSyntax.self) { return member.name.text }
        return attribute.attributeName.as(IdentifierTypeSyntax.self)?.name.text
    }

    /// `category` for `\Todo.category`.
    private static func property(_ expression: ExprSyntax) -> String? {
        guard let keyPath = expression.as(KeyPathExprSyntax.self), keyPath.components.count == 1,
            case .property(let component) = keyPath.components.first?.component,
            component.genericArgumentClause == nil
        else { return nil }
        return component.declName.baseName.text
    }
}
