// The public face of shop/catalogue/: what other folders of the shop and the adapters use of it.
// Other folders import only this file (eslint.config.js).

export { type CatalogueProduct } from "./catalogue";
export { createCategory, deleteCategory, listCategories, updateCategory } from "./categories";
export { confirmProductImage, createUploadUrl, detectImageType, receiveUpload } from "./images";
export { createPostageOption, deletePostageOption, listPostageOptions, type PostageRow, updatePostageOption } from "./postage";
export { formatPence, toPence, unitPricePence, variantUnitPricePence } from "./pricing";
export { listProductPage, listProductsMatching } from "./product-list";
export { createProduct, deleteProduct, STOCK_OF_VARIANTS, updateProduct } from "./products";
export {
  ensureDefaultVariants,
  findVariant,
  getProduct,
  listVariants,
  type ProductWithVariants,
  replaceVariants,
  toVariant,
  type VariantRow,
  variantsByProduct,
} from "./variants";
export { type CachedReads, cachedReads, type ChangeFeed, createReadCache, type ReadCache } from "./read-cache";
