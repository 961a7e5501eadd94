"""ts_notes: a small TypeScript notes app, its history scripted step by step.

Same format as python_shop/history.py: each Step is one commit; W writes a file, E replaces one
exact snippet, MV is ``git mv``, D is ``git rm``; ``facts(S)`` lists what the history is known to
contain (S maps step keys to 1-based step numbers). TypeScript module names are repo-relative
paths without extension, an ``index`` file naming its folder (docs/schema.md).
"""

import json

from mnemosyne.samples import D, E, MV, W, Step

ALICE = ("Alice Example", "alice@example.com")
BOB = ("Bob Builder", "bob@example.com")
CAROL = ("Carol Reviewer", "carol@example.com")

# the npm packages the lockfile knows: name -> (version, dependencies)
REGISTRY = {
    "typescript": ("5.4.5", {}),
    "dayjs@1.11.10": ("1.11.10", {}),
    "dayjs@1.11.13": ("1.11.13", {}),
    "react": ("18.3.1", {"loose-envify": "^1.1.0"}),
    "loose-envify": ("1.4.0", {"js-tokens": "^3.0.0 || ^4.0.0"}),
    "js-tokens": ("4.0.0", {}),
    "@types/react": ("18.3.3", {"@types/prop-types": "*", "csstype": "^3.0.2"}),
    "@types/prop-types": ("15.7.12", {}),
    "csstype": ("3.1.3", {}),
}


def package_files(deps: dict[str, str], dev: dict[str, str], locked: list[str]) -> tuple:
    """package.json and package-lock.json (lockfileVersion 3) for the given dependencies."""
    manifest = {
        "name": "ts-notes",
        "version": "0.1.0",
        "private": True,
        "type": "module",
        "scripts": {"build": "tsc -p .", "start": "node dist/app.js"},
    }
    if deps:
        manifest["dependencies"] = dict(sorted(deps.items()))
    manifest["devDependencies"] = dict(sorted(dev.items()))
    root = {"name": "ts-notes", "version": "0.1.0"}
    if deps:
        root["dependencies"] = dict(sorted(deps.items()))
    root["devDependencies"] = dict(sorted(dev.items()))
    packages = {"": root}
    for key in sorted(locked):
        name = key if key.startswith("@") or "@" not in key else key.split("@")[0]
        version, requires = REGISTRY[key]
        entry = {
            "version": version,
            "resolved": f"https://registry.npmjs.org/{name}/-/{name.split('/')[-1]}-{version}.tgz",
            "license": "MIT",
        }
        if requires:
            entry["dependencies"] = requires
        if name in dev or name.startswith("@types/") or name == "csstype":
            entry["dev"] = True
        packages[f"node_modules/{name}"] = entry
    lock = {"name": "ts-notes", "version": "0.1.0", "lockfileVersion": 3, "requires": True, "packages": packages}
    return (
        W("package.json", json.dumps(manifest, indent=2) + "\n"),
        W("package-lock.json", json.dumps(lock, indent=2) + "\n"),
    )


REACT = ["react", "loose-envify", "js-tokens"]
REACT_TYPES = ["@types/react", "@types/prop-types", "csstype"]

TSCONFIG = '''
{
  "compilerOptions": {
    "target": "ES2022",
    "module": "ESNext",
    "moduleResolution": "Bundler",
    "jsx": "react-jsx",
    "strict": true,
    "outDir": "dist",
    "baseUrl": ".",
    "paths": {
      "@/*": ["src/*"]
    }
  },
  "include": ["src"]
}
'''

NOTE = '''
export interface Note {
  id: string;
  title: string;
  body: string;
  createdAt: Date;
  tags: string[];
}

export function makeNote(id: string, title: string, body: string): Note {
  return { id, title, body, createdAt: new Date(), tags: [] };
}
'''

SLUG = '''
/** URL-safe identifier from a title. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .trim()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** Shorten a text for previews. */
export const truncate = (text: string, max: number): string =>
  text.length <= max ? text : text.slice(0, max - 1) + "\u2026";

/** Ids of the v1 app: slug plus a timestamp. */
export function makeLegacyId(title: string): string {
  return `${slugify(title)}-${Date.now()}`;
}
'''

MIGRATE = '''
import { makeNote, Note } from "../models/note";

interface V1Note {
  key: string;
  text: string;
}

export function migrateV1(old: V1Note[]): Note[] {
  return old.map((n) => makeNote(n.key, n.text.split("\\n")[0], n.text));
}
'''

STORE = '''
export abstract class Store<T extends { id: string }> {
  abstract get(id: string): T | undefined;
  abstract save(item: T): void;
  abstract all(): T[];
}

export class MemoryStore<T extends { id: string }> extends Store<T> {
  private items = new Map<string, T>();

  get(id: string): T | undefined {
    return this.items.get(id);
  }

  save(item: T): void {
    this.items.set(item.id, item);
  }

  all(): T[] {
    return [...this.items.values()];
  }
}
'''

NOTE_STORE = '''
import { Note } from "../models/note";
import { MemoryStore } from "./store";

export class NoteStore extends MemoryStore<Note> {
  byTag(tag: string): Note[] {
    return this.all().filter((n) => n.tags.includes(tag));
  }
}
'''

SERVICE = '''
import { makeNote, Note } from "@/models/note";
import { NoteStore } from "@/stores/noteStore";
import { makeLegacyId, slugify } from "@/util/slug";

export class NoteService {
  constructor(private readonly store: NoteStore = new NoteStore()) {}

  create(title: string, body: string): Note {
    const id = this.store.get(slugify(title)) ? makeLegacyId(title) : slugify(title);
    const note = makeNote(id, title, body);
    this.store.save(note);
    return note;
  }

  search(query: string): Note[] {
    const q = query.toLowerCase();
    return this.store.all().filter((n) => n.title.toLowerCase().includes(q) || n.body.toLowerCase().includes(q));
  }
}
'''

INDEX = '''
export * from "./models/note";
export { NoteService } from "./services/noteService";
export { NoteStore } from "./stores/noteStore";
export { MemoryStore, Store } from "./stores/store";
'''

DATE = '''
import dayjs from "dayjs";

export function formatDate(date: Date): string {
  return dayjs(date).format("YYYY-MM-DD");
}
'''

APP = '''
import { NoteService } from "./index";
import { formatDate } from "./util/date";
import { truncate } from "./util/slug";

export function main(): void {
  const service = new NoteService();
  service.create("Groceries", "milk, eggs, coffee");
  service.create("Ideas", "a notes app that remembers its own history");
  for (const note of service.search("e")) {
    console.log(`${formatDate(note.createdAt)} ${note.title}: ${truncate(note.body, 20)}`);
  }
}

main();
'''

NOTE_LIST = '''
import { Note } from "@/models/note";
import { truncate } from "@/util/slug";

interface NoteItemProps {
  note: Note;
}

export function NoteItem({ note }: NoteItemProps) {
  return (
    <li className="note">
      <h2>{note.title}</h2>
      <p>{truncate(note.body, 80)}</p>
    </li>
  );
}

export default function NoteList({ notes }: { notes: Note[] }) {
  return <ul>{notes.map((n) => <NoteItem key={n.id} note={n} />)}</ul>;
}
'''

STEPS = [
    Step("init", "Initial notes model, slug helpers and v1 migration", (
        W("README.md", "# ts_notes\n\nA small TypeScript notes app used as Mnemosyne's sample repository.\n"),
        *package_files({}, {"typescript": "^5.4.5"}, ["typescript"]),
        W("tsconfig.json", TSCONFIG),
        W("src/models/note.ts", NOTE),
        W("src/util/slug.ts", SLUG),
        W("src/legacy/migrate.ts", MIGRATE),
    ), author=ALICE),
    Step("stores", "Add Store, MemoryStore and NoteStore (NOTES-4)", (
        W("src/stores/store.ts", STORE),
        W("src/stores/noteStore.ts", NOTE_STORE),
    ), author=BOB),
    Step("service", "Add NoteService with slug ids, #2", (
        W("src/services/noteService.ts", SERVICE),
    ), author=ALICE),
    Step("index", "Re-export the public API from src/index.ts", (
        W("src/index.ts", INDEX),
    ), author=BOB),
    Step("dayjs", "Format dates with dayjs, fixes #7", (
        *package_files({"dayjs": "^1.11.10"}, {"typescript": "^5.4.5"}, ["dayjs@1.11.10", "typescript"]),
        W("src/util/date.ts", DATE),
        W("src/app.ts", APP),
    ), author=CAROL),
    Step("note_list", "Add NoteList React component (NOTES-9)", (
        *package_files({"dayjs": "^1.11.10", "react": "^18.3.1"},
                       {"@types/react": "^18.3.3", "typescript": "^5.4.5"},
                       ["dayjs@1.11.10", "typescript", *REACT, *REACT_TYPES]),
        W("src/components/NoteList.tsx", NOTE_LIST),
        E("src/index.ts", 'export * from "./models/note";\n',
          'export { default as NoteList, NoteItem } from "./components/NoteList";\nexport * from "./models/note";\n'),
    ), branch="feature/note-list", author=BOB),
    Step("truncate_fix", "Fix truncate off-by-one, #11", (
        E("src/util/slug.ts", 'text.slice(0, max - 1) + "\u2026"', 'text.slice(0, Math.max(0, max - 1)) + "\u2026"'),
    ), author=ALICE),
    Step("highlight", "NoteList: highlight the selected note (NOTES-9)", (
        E("src/components/NoteList.tsx", "interface NoteItemProps {\n  note: Note;\n}",
          "interface NoteItemProps {\n  note: Note;\n  selected?: boolean;\n}"),
        E("src/components/NoteList.tsx", "export function NoteItem({ note }: NoteItemProps) {\n  return (\n"
          '    <li className="note">',
          "export function NoteItem({ note, selected }: NoteItemProps) {\n  return (\n"
          '    <li className={selected ? "note selected" : "note"}>'),
    ), branch="feature/note-list", author=BOB),
    Step("merge_list", "Merge pull request #5 from bob/feature/note-list\n\nNoteList component (NOTES-9)",
         merge="feature/note-list", author=CAROL),
    Step("bump_dayjs", "Bump dayjs to 1.11.13 (NOTES-15)", (
        *package_files({"dayjs": "^1.11.13", "react": "^18.3.1"},
                       {"@types/react": "^18.3.3", "typescript": "^5.4.5"},
                       ["dayjs@1.11.13", "typescript", *REACT, *REACT_TYPES]),
    ), author=CAROL),
    Step("drop_legacy_id", "Remove legacy ids, fixes #12", (
        E("src/services/noteService.ts", "    const id = this.store.get(slugify(title)) ? makeLegacyId(title) : slugify(title);\n",
          "    const id = slugify(title);\n"),
        E("src/services/noteService.ts", 'import { makeLegacyId, slugify } from "@/util/slug";',
          'import { slugify } from "@/util/slug";'),
        E("src/util/slug.ts", (
            "\n/** Ids of the v1 app: slug plus a timestamp. */\n"
            "export function makeLegacyId(title: string): string {\n"
            "  return `${slugify(title)}-${Date.now()}`;\n"
            "}\n"
        ), ""),
    ), author=ALICE),
    Step("move_slug", "Move text helpers to src/lib/text (NOTES-17)", (
        MV("src/util/slug.ts", "src/lib/text/slug.ts"),
        E("src/services/noteService.ts", 'from "@/util/slug"', 'from "@/lib/text/slug"'),
        E("src/components/NoteList.tsx", 'from "@/util/slug"', 'from "@/lib/text/slug"'),
        E("src/app.ts", 'from "./util/slug"', 'from "./lib/text/slug"'),
    ), author=BOB),
    Step("rename_service", "Rename noteService.ts to note-service.ts", (
        MV("src/services/noteService.ts", "src/services/note-service.ts"),
        E("src/index.ts", 'from "./services/noteService"', 'from "./services/note-service"'),
    ), author=BOB),
    Step("drop_truncate", "Previews show full text: remove truncate", (
        E("src/lib/text/slug.ts", (
            "\n/** Shorten a text for previews. */\n"
            "export const truncate = (text: string, max: number): string =>\n"
            '  text.length <= max ? text : text.slice(0, Math.max(0, max - 1)) + "\u2026";\n'
        ), ""),
        E("src/components/NoteList.tsx", 'import { truncate } from "@/lib/text/slug";\n', ""),
        E("src/components/NoteList.tsx", "<p>{truncate(note.body, 80)}</p>", "<p>{note.body}</p>"),
        E("src/app.ts", 'import { truncate } from "./lib/text/slug";\n', ""),
        E("src/app.ts", "${truncate(note.body, 20)}", "${note.body}"),
    ), author=ALICE),
    Step("drop_dayjs", "Replace dayjs with Intl.DateTimeFormat, closes #16", (
        *package_files({"react": "^18.3.1"}, {"@types/react": "^18.3.3", "typescript": "^5.4.5"},
                       ["typescript", *REACT, *REACT_TYPES]),
        W("src/util/date.ts", '''
            const formatter = new Intl.DateTimeFormat("en-CA", { year: "numeric", month: "2-digit", day: "2-digit" });

            export function formatDate(date: Date): string {
              return formatter.format(date);
            }
            '''),
    ), author=CAROL),
    Step("drop_migrate", "Delete the v1 migration (NOTES-20)", (
        D("src/legacy/migrate.ts"),
    ), author=ALICE),
    Step("readd_truncate", "Bring truncate back for list previews, #21", (
        E("src/lib/text/slug.ts", '.replace(/^-+|-+$/g, "");\n}\n', (
            '.replace(/^-+|-+$/g, "");\n}\n'
            "\n/** Shorten a text for previews. */\n"
            "export const truncate = (text: string, max: number): string =>\n"
            '  text.length <= max ? text : text.slice(0, Math.max(0, max - 1)) + "\u2026";\n'
        )),
        E("src/components/NoteList.tsx", 'import { Note } from "@/models/note";\n',
          'import { Note } from "@/models/note";\nimport { truncate } from "@/lib/text/slug";\n'),
        E("src/components/NoteList.tsx", "<p>{note.body}</p>", "<p>{truncate(note.body, 80)}</p>"),
    ), author=BOB),
]


def facts(S):
    """Known facts of this history; S maps step keys to 1-based step numbers."""
    return {
        "language": "typescript",
        "commits": len(STEPS),
        "merge": {
            "step": S["merge_list"],
            "branch": "feature/note-list",
            "pull_request": 5,
            "branch_steps": [S["note_list"], S["highlight"]],
        },
        "calls_removed": [
            {"caller": "src/services/noteService.NoteService.create", "callee": "src/util/slug.makeLegacyId",
             "present_at_step": S["service"], "absent_at_step": S["drop_legacy_id"]},
            {"caller": "src/app.main", "callee": "src/lib/text/slug.truncate",
             "present_at_step": S["move_slug"], "absent_at_step": S["drop_truncate"]},
        ],
        "calls_added_by_merge": [
            {"caller": "src/components/NoteList.NoteItem", "callee": "src/util/slug.truncate",
             "committed_at_step": S["note_list"], "on_timeline_at_step": S["merge_list"]},
        ],
        "calls_present": [
            {"caller": "src/services/noteService.NoteService.create", "callee": "src/util/slug.slugify",
             "at_step": S["service"]},
            {"caller": "src/services/note-service.NoteService.create", "callee": "src/lib/text/slug.slugify",
             "at_step": S["rename_service"]},
            {"caller": "src/app.main", "callee": "src/services/noteService.NoteService.constructor",
             "at_step": S["dayjs"]},
            {"caller": "src/components/NoteList.NoteList.<arrow:notes:map>", "callee": "src/components/NoteList.NoteItem",
             "at_step": S["merge_list"]},
        ],
        "functions_removed": [
            {"fqn": "src/util/slug.makeLegacyId", "present_at_step": S["init"],
             "absent_at_step": S["drop_legacy_id"]},
            {"fqn": "src/legacy/migrate.migrateV1", "present_at_step": S["init"],
             "absent_at_step": S["drop_migrate"]},
        ],
        "functions_removed_and_readded": [
            {"fqn": "src/lib/text/slug.truncate", "present_at_step": S["move_slug"],
             "absent_at_step": S["drop_truncate"], "readded_at_step": S["readd_truncate"]},
        ],
        "renames": [
            {"from": "src/util/slug.ts", "to": "src/lib/text/slug.ts", "step": S["move_slug"],
             "across_directories": True,
             "symbol_before": "src/util/slug.slugify", "symbol_after": "src/lib/text/slug.slugify"},
            {"from": "src/services/noteService.ts", "to": "src/services/note-service.ts",
             "step": S["rename_service"], "across_directories": False,
             "symbol_before": "src/services/noteService.NoteService",
             "symbol_after": "src/services/note-service.NoteService"},
        ],
        "deletes": [{"path": "src/legacy/migrate.ts", "step": S["drop_migrate"]}],
        "inherits": [
            {"child": "src/stores/store.MemoryStore", "parent": "src/stores/store.Store", "at_step": S["stores"]},
            {"child": "src/stores/noteStore.NoteStore", "parent": "src/stores/store.MemoryStore",
             "at_step": S["stores"]},
        ],
        "dependencies": [
            {"ecosystem": "npm", "package": "", "name": "dayjs", "scope": "runtime",
             "added_at_step": S["dayjs"], "bumped_at_step": S["bump_dayjs"], "removed_at_step": S["drop_dayjs"],
             "specs": {"package.json": ["^1.11.10", "^1.11.13"]},
             "locked": {"package-lock.json": ["1.11.10", "1.11.13"]}},
            {"ecosystem": "npm", "package": "", "name": "react", "scope": "runtime",
             "added_at_step": S["note_list"], "on_timeline_at_step": S["merge_list"],
             "specs": {"package.json": ["^18.3.1"]}, "locked": {"package-lock.json": ["18.3.1"]}},
        ],
        "tickets": [
            {"key": "NOTES-4", "step": S["stores"]},
            {"key": "#2", "step": S["service"]},
            {"key": "#7", "step": S["dayjs"], "fixes": True},
            {"key": "NOTES-9", "step": S["note_list"]},
            {"key": "#11", "step": S["truncate_fix"]},
            {"key": "NOTES-9", "step": S["highlight"]},
            {"key": "NOTES-9", "step": S["merge_list"]},
            {"key": "NOTES-15", "step": S["bump_dayjs"]},
            {"key": "#12", "step": S["drop_legacy_id"], "fixes": True},
            {"key": "NOTES-17", "step": S["move_slug"]},
            {"key": "#16", "step": S["drop_dayjs"], "fixes": True},
            {"key": "NOTES-20", "step": S["drop_migrate"]},
            {"key": "#21", "step": S["readd_truncate"]},
        ],
        "pull_requests": [{"number": 5, "step": S["merge_list"]}],
        "authors": sorted({ALICE[0], BOB[0], CAROL[0]}),
    }
