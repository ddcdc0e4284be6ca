import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { MAX_IMAGE_BYTES, ObjectPathSchema, ProductImageInputSchema, UploadUrlSchema } from "../../../contract";
import { confirmProductImage, createUploadUrl, detectImageType, receiveUpload } from "../../shop/catalogue";
import type { Routes } from "../deps";
import { HttpError } from "../errors";
import { documentedOnly, ERROR_ANSWERS } from "../openapi";
import { may, PUBLIC } from "../security";

const IMAGE_TOO_LARGE = "The image is too large: at most 5 MB (5,242,880 bytes).";
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

const TokenParamsSchema = z.object({ token: z.string().min(1) });
const ObjectParamsSchema = z.object({ id: z.string().min(1) });
const IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp"];
const imageBytes = { type: "string", format: "binary", description: "PNG, JPEG or WebP, at most 5,242,880 bytes" };
const imageFile = Object.fromEntries(IMAGE_TYPES.map((type) => [type, { schema: documentedOnly(imageBytes) }]));

export const uploadRoutes: Routes = async (app, deps) => {
  app.post("/api/objects/upload", { ...may("catalogue"), schema: { response: { 200: UploadUrlSchema, ...ERROR_ANSWERS } } }, () =>
    createUploadUrl(deps.db, deps.now()),
  );

  // The browser sends the raw image bytes here. Its own scope, so the any-type buffer parser and
  // the 5 MB limit apply to this route only; JSON elsewhere keeps the default limit.
  await app.register(async (plugin) => {
    const scope = plugin.withTypeProvider<ZodTypeProvider>();
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", (_request, payload, done) => {
      // A body over the limit is read to its end and dropped before the 413 goes out: answering
      // while the client is still sending makes it see a broken connection instead of the reason.
      // Past DRAIN_LIMIT_BYTES the connection is cut, so nobody can make us read forever.
      const chunks: Buffer[] = [];
      let received = 0;
      payload.on("data", (chunk: Buffer) => {
        received += chunk.length;
        if (received <= MAX_IMAGE_BYTES) chunks.push(chunk);
        else if (received > DRAIN_LIMIT_BYTES) payload.destroy();
      });
      payload.on("error", (error) => done(error, undefined));
      payload.on("end", () => {
        if (received > MAX_IMAGE_BYTES) done(new HttpError(413, IMAGE_TOO_LARGE), undefined);
        else done(null, Buffer.concat(chunks));
      });
    });
    scope.put(
      "/api/objects/upload/:token",
      // The parser above enforces the image limit itself; this only stops Fastify's own early 413.
      {
        bodyLimit: DRAIN_LIMIT_BYTES,
        ...may("catalogue"),
        schema: {
          params: TokenParamsSchema,
          // For the document only: the parser above reads the bytes, the handler checks them.
          consumes: IMAGE_TYPES,
          body: documentedOnly(imageBytes),
          response: { 200: ObjectPathSchema, ...ERROR_ANSWERS },
        },
      },
      async (request) => {
        const data = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const contentType = detectImageType(data);
        if (!contentType) throw new HttpError(415, "Only PNG, JPEG or WebP images can be uploaded.");
        return receiveUpload(deps.db, deps.storage, { token: request.params.token, data, contentType, now: deps.now() });
      },
    );
  });

  const confirmed = { 200: ObjectPathSchema, ...ERROR_ANSWERS };
  app.put("/api/product-images", { ...may("catalogue"), schema: { body: ProductImageInputSchema, response: confirmed } }, (request) =>
    confirmProductImage(deps.db, deps.storage, request.body.imageURL),
  );

  // Public, outside /api: Telegram and <img> load product images without a session.
  app.get("/objects/:id", {
      ...PUBLIC,
      schema: {
        params: ObjectParamsSchema,
        response: {
          // The bytes go out as they are (a Buffer is never serialised); this only documents them.
          200: { description: "The image", content: imageFile },
          ...ERROR_ANSWERS,
        },
      },
    }, async (request, reply) => {
    const object = await deps.storage.get(request.params.id);
    if (!object) throw new HttpError(404, "Image not found.");
    return reply
      .header("Content-Type", object.contentType)
      .header("X-Content-Type-Options", "nosniff")
      // An object id is never reused for other bytes, so the image can be cached for good.
      .header("Cache-Control", "public, max-age=31536000, immutable")
      .send(object.data);
  });
};
