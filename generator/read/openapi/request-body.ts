// Picks the JSON representation of a request body. Operations whose body has none (multipart
// uploads, form posts, raw bytes, plain text) are skipped: a model produces JSON arguments and
// toolguard validates JSON, so any other encoding would be guessed.
import { pointer as pointerOf } from "../../json-pointer.ts";
import { Untranslatable } from "./untranslatable.ts";

export interface JsonBody {
  /** The media type sent as Content-Type. */
  readonly contentType: string;
  /** JSON Pointer of the media type object in the document. */
  readonly pointer: string;
  readonly media: Readonly<Record<string, unknown>>;
}

const JSON_MEDIA = /^application\/(?:[\w.-]+\+)?json\s*(?:;.*)?$/i;

export function jsonBody(content: unknown, contentPointer: string): JsonBody {
  if (content === null || typeof content !== "object" || Array.isArray(content)) {
    throw new Untranslatable(contentPointer, "request body has no `content`");
  }
  const types = Object.keys(content);
  const chosen = types.find((type) => type.toLowerCase() === "application/json") ?? types.find((type) => JSON_MEDIA.test(type));
  if (chosen === undefined) {
    throw new Untranslatable(contentPointer, `request body has no JSON media type (offers ${types.join(", ") || "none"})`);
  }
  const media = (content as Record<string, unknown>)[chosen];
  return {
    contentType: chosen,
    pointer: `${contentPointer}${pointerOf(chosen)}`,
    media: media !== null && typeof media === "object" ? (media as Record<string, unknown>) : {},
  };
}
