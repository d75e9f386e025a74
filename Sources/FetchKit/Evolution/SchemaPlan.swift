/// What brings a database to a declared schema: the additive steps that can run as they are (create a table,
/// add a column, create an index), in order, and the changes FetchKit refuses to make for you.
///
/// A plan never drops or rewrites anything. A change that would lose data or break inserts — a column whose
/// type changed, a primary key that changed, a column that became required, a column the model no longer
/// declares that inserts cannot leave out — is a ``Refusal`` naming the table, the column and what to do.
/// A column the model no longer declares is otherwise left alone and reported as a ``Note``.
///
/// ```swift
/// let plan = try await schema.plan(against: store)
/// print(plan.sql)
/// // ALTER TABLE "todo" ADD COLUMN "priority" INTEGER NOT NULL DEFAULT 0;
/// // CREATE INDEX IF NOT EXISTS "todo_due_idx" ON "todo" ("due");
/// if plan.refusals.isEmpty { try await store.apply(plan) }
/// ```
public struct SchemaPlan: Sendable, Hashable, CustomStringConvertible {
    /// The steps, in the order they must run (a table before its indexes and before the tables that reference it).
    public var steps: [Step]
    /// The changes the plan does not make, each with what to do instead.
    public var refusals: [Refusal]
    /// What the plan leaves alone on purpose (a column the model no longer declares).
    public var notes: [Note]

    /// Creates a plan.
    public init(steps: [Step] = [], refusals: [Refusal] = [], notes: [Note] = []) {
        self.steps = steps
        self.refusals = refusals
        self.notes = notes
    }

    /// Whether there is nothing to do and nothing refused: the database already matches the schema.
    public var isEmpty: Bool { steps.isEmpty && refusals.isEmpty }

    /// The DDL of the steps, one statement per line, each ending with `;` (empty when there is no step).
    public var sql: String { steps.map { $0.sql + ";\n" }.joined() }

    /// The DDL, then each refusal and note as a SQL comment (`-- refused: …`, `-- note: …`), so the whole
    /// text can be read in a log or saved as a migration to complete by hand.
    public var description: String {
        var text = sql
        for refusal in refusals { text += "-- refused: \(refusal)\n" }
        for note in notes { text += "-- note: \(note)\n" }
        return text.isEmpty ? "-- the database matches the schema\n" : text
    }

    /// One statement of a plan.
    public struct Step: Sendable, Hashable, CustomStringConvertible {
        /// What a step does.
        public enum Kind: Sendable, Hashable {
            /// Creates a table the database does not hold (without its indexes: those are steps of their own).
            case createTable
            /// Adds a column to an existing table.
            case addColumn(column: String)
            /// Creates an index on a column.
            case createIndex(column: String, name: String)
        }

        /// What the step does.
        public var kind: Kind
        /// The table it changes.
        public var table: String
        /// The statement, without a trailing `;`.
        public var sql: String

        /// Creates a step.
        public init(_ kind: Kind, table: String, sql: String) {
            self.kind = kind
            self.table = table
            self.sql = sql
        }

        /// The statement.
        public var description: String { sql }
    }

    /// A change the plan refuses to make: where, what is wrong, and what to do.
    public struct Refusal: Sendable, Hashable, CustomStringConvertible {
        /// The table concerned.
        public var table: String
        /// The column concerned, when there is one.
        public var column: String?
        /// What differs between the database and the schema.
        public var problem: String
        /// What to do about it.
        public var remedy: String

        /// Creates a refusal.
        public init(table: String, column: String? = nil, problem: String, remedy: String) {
            self.table = table
            self.column = column
            self.problem = problem
            self.remedy = remedy
        }

        /// `table 'todo', column 'due': <problem>; <remedy>`, names escaped.
        public var description: String {
            "table \(SafeText.quoted(table))" + (column.map { ", column \(SafeText.quoted($0))" } ?? "") + ": "
                + SafeText.escaped(problem) + "; " + SafeText.escaped(remedy)
        }
    }

    /// Something the plan leaves alone on purpose.
    public struct Note: Sendable, Hashable, CustomStringConvertible {
        /// The table concerned.
        public var table: String
        /// The column concerned, when there is one.
        public var column: String?
        /// What was left alone, and why.
        public var text: String

        /// Creates a note.
        public init(table: String, column: String? = nil, text: String) {
            self.table = table
            self.column = column
            self.text = text
        }

        /// `table 'todo', column 'legacy': <text>`, names escaped.
        public var description: String {
            "table \(SafeText.quoted(table))" + (column.map { ", column \(SafeText.quoted($0))" } ?? "") + ": "
                + SafeText.escaped(text)
        }
    }
}
