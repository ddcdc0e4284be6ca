import {
  Baby,
  Bike,
  Book,
  Camera,
  Car,
  Coffee,
  Folder,
  Gamepad2,
  Gem,
  Gift,
  Headphones,
  Heart,
  House,
  Laptop,
  Leaf,
  type LucideIcon,
  Music,
  PawPrint,
  Pill,
  Shirt,
  ShoppingBag,
  Smartphone,
  Star,
  Tag,
  Tv,
  Utensils,
  Watch,
  Wrench,
} from "lucide-react";
import { createElement } from "react";

// Categories store an icon-font class such as "fas fa-laptop" (docs/product.md §2). No icon font is shipped,
// so the common names are drawn with the matching lucide icon; any other class shows a tag.
const ICONS: Record<string, LucideIcon> = {
  laptop: Laptop,
  desktop: Laptop,
  computer: Laptop,
  mobile: Smartphone,
  "mobile-alt": Smartphone,
  "mobile-screen": Smartphone,
  phone: Smartphone,
  tshirt: Shirt,
  shirt: Shirt,
  book: Book,
  gift: Gift,
  home: House,
  house: House,
  car: Car,
  camera: Camera,
  music: Music,
  gamepad: Gamepad2,
  heart: Heart,
  star: Star,
  "shopping-bag": ShoppingBag,
  tag: Tag,
  utensils: Utensils,
  coffee: Coffee,
  "mug-hot": Coffee,
  leaf: Leaf,
  tv: Tv,
  headphones: Headphones,
  gem: Gem,
  baby: Baby,
  paw: PawPrint,
  dog: PawPrint,
  bicycle: Bike,
  tools: Wrench,
  wrench: Wrench,
  pills: Pill,
  capsules: Pill,
  clock: Watch,
  watch: Watch,
};

function iconFor(iconClass: string): LucideIcon {
  for (const part of iconClass.split(/\s+/)) {
    const name = /^fa-(.+)$/.exec(part)?.[1];
    if (name && ICONS[name]) return ICONS[name];
  }
  return Tag;
}

/** The category's custom icon when it has one, else the default folder. */
export function CategoryIcon({ icon }: { icon: string | null }) {
  // createElement: the icon is one of the module-level components above, picked by name.
  const glyph = createElement(icon ? iconFor(icon) : Folder, { className: "size-5", "aria-hidden": true });
  return (
    <div
      className="bg-primary/10 text-primary flex size-10 shrink-0 items-center justify-center rounded-lg"
      title={icon ?? undefined}
      data-testid={icon ? "category-custom-icon" : "category-default-icon"}
      data-icon={icon ?? undefined}
    >
      {glyph}
    </div>
  );
}
